package workflow

// KindFields lists the fields a node of kind k takes beyond id, kind and
// title, by their YAML names ("if" is a branch's condition); nil for a
// kind that is not one. It is the table Validate checks a node's fields
// against, so that an editor shows each kind's form from the same rules.
func KindFields(k Kind) []string {
	f, _ := kindFields(k)
	return f
}

// ParamTypes lists the types a parameter may have.
func ParamTypes() []ParamType { return []ParamType{Text, Number, Bool} }

// EndStatuses lists the statuses an end node may give a run.
func EndStatuses() []string { return []string{Completed, Stopped} }
