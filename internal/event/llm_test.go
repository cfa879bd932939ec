package event

import "testing"

func TestFoldSumsModelCalls(t *testing.T) {
	events := []Event{
		started(t),
		mustNew(t, 2, &ModelCalledData{Provider: "anthropic", Model: "m", Tier: "strong", InputTokens: 100, OutputTokens: 20, CacheReadTokens: 1000, CacheWriteTokens: 7, CostMicroUSD: 1500, Attempt: 1}),
		mustNew(t, 3, &ModelCalledData{Provider: "anthropic", Model: "m", Attempt: 1, Error: "overloaded"}),
		mustNew(t, 4, &ModelCalledData{Provider: "anthropic", Model: "m", InputTokens: 5, OutputTokens: 1, CostMicroUSD: 25, Attempt: 2}),
	}
	st, err := Fold(events)
	if err != nil {
		t.Fatal(err)
	}
	if st.CostMicroUSD != 1525 || st.InputTokens != 105 || st.OutputTokens != 21 || st.CacheReadTokens != 1000 || st.CacheWriteTokens != 7 {
		t.Errorf("cost %d, tokens in %d out %d read %d write %d; want 1525, 105, 21, 1000, 7", st.CostMicroUSD, st.InputTokens, st.OutputTokens, st.CacheReadTokens, st.CacheWriteTokens)
	}
	// A run.finished without a cost keeps the sum.
	st, err = Fold(append(events, mustNew(t, 5, &RunFinishedData{Status: StatusSucceeded})))
	if err != nil {
		t.Fatal(err)
	}
	if st.CostMicroUSD != 1525 {
		t.Errorf("after run.finished cost = %d, want 1525", st.CostMicroUSD)
	}
}
