package planner

import "testing"

func TestDbgZ(t *testing.T) {
	m := petsModel()
	p := New(m, nil)
	for _, q := range []string{
		"Find the average and maximum age for each type of pet.",
		"What is the average and maximum age for each pet type?",
	} {
		pl := p.Plan(q, asOf)
		t.Log(planText(m, q, pl), pl.Understood)
	}
}
