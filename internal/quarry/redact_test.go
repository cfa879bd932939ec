package quarry

import "testing"

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:s3cret@h:5432/db":                          "postgres://u:xxxxx@h:5432/db",
		"postgres://u@h/db?password=s3cret":                      "postgres://u@h/db?password=xxxxx",
		"host=h user=u password=s3cret dbname=d":                 "host=h user=u password=xxxxx dbname=d",
		"host=h password='s 3cret' dbname=d":                     "host=h password=xxxxx dbname=d",
		"postgres://u:s3cret/%zz@h:notaport/db":                  "postgres://u:xxxxx@h:notaport/db",
		"postgres://u@h:5432/db?sslmode=disable":                 "postgres://u@h:5432/db?sslmode=disable",
		"postgres://quarry:s3cret@db:5432/state?sslmode=disable": "postgres://quarry:xxxxx@db:5432/state?sslmode=disable",
		"postgresql://db/state?password=s3cret":                  "postgresql://db/state?password=xxxxx",
		"/home/ana/.quarry/state.db":                             "/home/ana/.quarry/state.db",
		"postgres://q:P@ss%zz@127.0.0.1:5432/db":                 "postgres://q:xxxxx@127.0.0.1:5432/db",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
