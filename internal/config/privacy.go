package config

import (
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/quarrydata/quarry/internal/quarry"
)

// privacy reads a connection's privacy tier and minimum group size into
// conn: one of quarry.Privacies (full when the key is absent; an empty
// value is an error), and a group size
// only where the tier is aggregates-only.
func (d *decoder) privacy(c *connDraft, conn *Connection) error {
	p := c.path0
	if line := d.lines[p+".privacy"]; line != 0 && strings.TrimSpace(c.privacy) == "" {
		// Written but empty (privacy: "", or a variable that expands to
		// nothing): not silently full.
		return d.errAt(line, p+".privacy", "is empty; write one of full, aggregates-only, schema-only (leave the key out for full)")
	}
	tier := quarry.Privacy(strings.ToLower(strings.TrimSpace(c.privacy))).Or()
	if !tier.Valid() {
		var names []string
		for _, t := range quarry.Privacies() {
			names = append(names, string(t))
		}
		return d.errAt(d.lines[p+".privacy"], p+".privacy", "unknown privacy tier %q (%s); write full, aggregates-only or schema-only", shorten(c.privacy), hint(string(tier), names))
	}
	if tier != quarry.PrivacyFull {
		conn.Privacy = tier // "" stays the default, full
	}
	if line := d.lines[p+".min_group_size"]; line != 0 && tier != quarry.PrivacyAggregates {
		return d.errAt(line, p+".min_group_size", "is only for connections with `privacy: aggregates-only`; remove it or set that tier")
	}
	conn.MinGroupSize = c.minGroupSize
	if tier == quarry.PrivacyAggregates && conn.MinGroupSize == 0 {
		conn.MinGroupSize = quarry.DefaultMinGroupSize
	}
	return nil
}

// approval reads a connection's approval mode (required or off; off when
// the key is absent) and how long a statement waits for a decision.
func (d *decoder) approval(c *connDraft, conn *Connection) error {
	p := c.path0
	switch strings.ToLower(strings.TrimSpace(c.approval)) {
	case "required":
		conn.Approval = true
	case "off":
	case "":
		if line := d.lines[p+".approval"]; line != 0 {
			return d.errAt(line, p+".approval", "is empty; write required or off (leave the key out for off)")
		}
	default:
		return d.errAt(d.lines[p+".approval"], p+".approval", "unknown approval mode %q; write required or off", shorten(c.approval))
	}
	if line := d.lines[p+".approval_timeout"]; line != 0 && !conn.Approval {
		return d.errAt(line, p+".approval_timeout", "is only for connections with `approval: required`; remove it or set that mode")
	}
	conn.ApprovalTimeout = c.approvalTimeout
	return nil
}

// groupRoles reads a postgres connection's group_roles: group name to
// the database role its members read as.
func (d *decoder) groupRoles(n ast.Node, path string, c *connDraft) error {
	m, err := d.mapping(n, path)
	if err != nil || m == nil {
		return err
	}
	c.groupRoles = map[string]string{}
	for _, mv := range m.Values {
		group, err := d.keyText(mv.Key, path)
		if err != nil {
			return err
		}
		gp := path + "." + group
		if !quarry.PersonName(group) {
			return d.errAt(lineOf(mv.Key), shorten(gp), "%q is not a group name quarry takes: use letters, digits and . _ @ -", shorten(group))
		}
		s, err := d.text(mv.Value, gp)
		if err != nil {
			return err
		}
		role := strings.TrimSpace(s.value)
		if !validRole(role) {
			return d.errAt(s.line, shorten(gp), "%q is not a role name: write the role as PostgreSQL names it (letters, digits, _ and $, at most 63)", shorten(role))
		}
		key := strings.ToLower(group)
		if _, dup := c.groupRoles[key]; dup {
			return d.errAt(lineOf(mv.Key), shorten(gp), "group %q is given a role twice; keep one", shorten(group))
		}
		c.groupRoles[key] = role
	}
	return nil
}

// validRole reports whether s is a PostgreSQL role name quarry sets: an
// unquoted identifier's characters, at most 63 bytes.
func validRole(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '$')
		if !ok {
			return false
		}
	}
	return true
}
