// Package eval scores a question-answering system by execution: each case
// of a golden set is a question with gold SQL (run on the same connection)
// or expected rows, or an expected refusal; the system's answer is run and
// its result compared with the gold result as a multiset (in order when the
// gold query orders), numbers to a tolerance and columns matched by their
// values rather than their names. Every failed case gets a reason code, and
// a Summary counts correct answers, wrong answers (the dangerous ones) and
// refusals separately.
//
// The system under test is the System interface; BuiltinSystem wires the
// builtin planner, the semantic compiler and a connection directly. The
// Spider benchmark's dev set is read by LoadSpider and scored by
// RunSpider, building each database's knowledge with learn alone.
package eval
