package agent_test

import "github.com/quarrydata/quarry/internal/agent"

type agentOptions = agent.AskOptions

var agentClassify = agent.Classify
