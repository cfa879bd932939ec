package planner

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/internal/knowledge"
	"github.com/quarrydata/quarry/internal/semantic"
)

func TestZZProj(t *testing.T) {
	f, err := knowledge.Load(os.Getenv("DBG_PROJ"))
	if err != nil {
		t.Fatal(err)
	}
	p := New(f.Model, nil)
	asOf := time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	for _, q := range strings.Split(os.Getenv("DBG_Q"), "|") {
		pl := p.Plan(q, asOf)
		t.Logf("%q: %s %q %q %q", q, pl.Kind, pl.Reason, pl.Question, append(pl.Options, pl.Understood...))
		if pl.Query != nil && os.Getenv("DBG_SQL") != "" {
			c, err := semantic.Compile(pl.Model(f.Model), *pl.Query, "sqlite")
			t.Logf("%v %s", err, c.SQL)
		}
	}
}
