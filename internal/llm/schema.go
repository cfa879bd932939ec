package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Schema is the subset of JSON Schema that quarry's structured answers use:
// type (one or a list), properties, required, additionalProperties: false,
// items, enum, minItems and maxItems. Other keywords are accepted and
// ignored, so a schema written for a provider's structured outputs works
// here too.
type Schema struct {
	Type                 []string           `json:"-"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"-"`
	Items                *Schema            `json:"items"`
	Enum                 []any              `json:"enum"`
	MinItems             *int               `json:"minItems"`
	MaxItems             *int               `json:"maxItems"`
}

// ParseSchema reads a JSON Schema.
func ParseSchema(data json.RawMessage) (*Schema, error) {
	var s Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// UnmarshalJSON reads the keywords whose JSON shape varies.
func (s *Schema) UnmarshalJSON(data []byte) error {
	type plain Schema
	if err := json.Unmarshal(data, (*plain)(s)); err != nil {
		return err
	}
	var extra struct {
		Type                 json.RawMessage `json:"type"`
		AdditionalProperties json.RawMessage `json:"additionalProperties"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return err
	}
	if len(extra.Type) > 0 {
		var one string
		if json.Unmarshal(extra.Type, &one) == nil {
			s.Type = []string{one}
		} else if err := json.Unmarshal(extra.Type, &s.Type); err != nil {
			return fmt.Errorf("schema type: %w", err)
		}
	}
	var b bool
	if len(extra.AdditionalProperties) > 0 && json.Unmarshal(extra.AdditionalProperties, &b) == nil {
		s.AdditionalProperties = &b
	}
	return nil
}

// Validate checks v (as decoded by encoding/json, with or without
// UseNumber) against s and names the first place it fails.
func (s *Schema) Validate(v any) error {
	return s.validate("$", v)
}

func (s *Schema) validate(path string, v any) error {
	if s == nil {
		return nil
	}
	if len(s.Type) > 0 && !slices.ContainsFunc(s.Type, func(t string) bool { return isType(v, t) }) {
		return fmt.Errorf("%s should be %s, not %s", path, strings.Join(s.Type, " or "), typeName(v))
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return sameJSON(e, v) }) {
		return fmt.Errorf("%s is %s, which is not one of the allowed values", path, short(v))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, name := range s.Required {
			if _, ok := x[name]; !ok {
				return fmt.Errorf("%s lacks the required field %q", path, name)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Errorf("%s has the field %q, which the schema does not allow", path, k)
				}
				continue
			}
			if err := sub.validate(path+"."+k, x[k]); err != nil {
				return err
			}
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			return fmt.Errorf("%s has %d items, fewer than %d", path, len(x), *s.MinItems)
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			return fmt.Errorf("%s has %d items, more than %d", path, len(x), *s.MaxItems)
		}
		for i, item := range x {
			if err := s.Items.validate(fmt.Sprintf("%s[%d]", path, i), item); err != nil {
				return err
			}
		}
	}
	return nil
}

func isType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := number(v)
		return ok
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f)
	}
	return true // an unknown type name constrains nothing
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	if _, ok := number(v); ok {
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	return oneLine(string(b), 40)
}
