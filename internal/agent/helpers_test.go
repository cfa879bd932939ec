package agent_test

import (
	"github.com/quarrydata/quarry/internal/agent"
	"github.com/quarrydata/quarry/internal/quarry"
)

type agentOptions = agent.AskOptions

var agentClassify = agent.Classify

func agentPasted(t *quarry.Table, format string) agent.Pasted {
	return agent.Pasted{Table: t, Format: format}
}

var agentDiff = agent.UnifiedDiff
