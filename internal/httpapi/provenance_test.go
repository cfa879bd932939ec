package httpapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/internal/export"
)

// TestExportAndRerun: the web UI's provenance links give the bundle as
// JSON and Markdown, and a re-run compares the result hash.
func TestExportAndRerun(t *testing.T) {
	sh := newShop(t)
	s := serve(t, sh, options{})
	res, b := s.do(t, "POST", "/api/run", `{"sql":"SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status"}`)
	var run runResponse
	if err := json.Unmarshal(b, &run); err != nil || res.StatusCode != 200 {
		t.Fatalf("run: %d %s", res.StatusCode, b)
	}
	var bundle export.Bundle
	s.getJSON(t, "/api/runs/"+run.RunID+"/export", 200, &bundle)
	if bundle.Format != export.Format || bundle.Run.RunID != run.RunID || bundle.Result == nil || len(bundle.Result.Rows) == 0 || len(bundle.Events) < 5 {
		t.Fatalf("bundle = %+v", bundle)
	}
	res, b = s.do(t, "GET", "/api/runs/"+run.RunID+"/export?format=md", "")
	if res.StatusCode != 200 || !strings.Contains(string(b), "GROUP BY status") || !strings.Contains(res.Header.Get("Content-Type"), "markdown") {
		t.Errorf("markdown: %d %s", res.StatusCode, b)
	}
	if res, _ := s.do(t, "GET", "/api/runs/"+run.RunID+"/export?format=xml", ""); res.StatusCode != 400 {
		t.Errorf("a bad format: %d", res.StatusCode)
	}
	res, b = s.do(t, "POST", "/api/runs/"+run.RunID+"/rerun", "")
	var r export.Rerun
	if err := json.Unmarshal(b, &r); err != nil || res.StatusCode != 200 || !r.Same || r.RerunID == "" || r.RerunID == run.RunID {
		t.Fatalf("rerun: %d %s", res.StatusCode, b)
	}
	// The re-execution is a recorded run of its own.
	var st struct {
		SQL string `json:"sql"`
	}
	s.getJSON(t, "/api/runs/"+r.RerunID, 200, &st)
	if !strings.Contains(st.SQL, "GROUP BY status") {
		t.Errorf("the re-run's run: %+v", st)
	}
	_, b = s.do(t, "POST", "/api/run", `{"sql":"DELETE FROM orders"}`)
	json.Unmarshal(b, &run)
	if res, b := s.do(t, "POST", "/api/runs/"+run.RunID+"/rerun", ""); res.StatusCode != 400 || !strings.Contains(string(b), "nothing to re-execute") {
		t.Errorf("rerun of a rejected run: %d %s", res.StatusCode, b)
	}
}
