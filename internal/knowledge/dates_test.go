package knowledge

import (
	"testing"

	"github.com/quarrydata/quarry/internal/semantic"
)

// TestTimeRoleGone: a tenant's move out and a student's withdrawal end
// their rows (found from outside: both had no role, and those gone
// counted as current); a move in starts them.
func TestTimeRoleGone(t *testing.T) {
	for name, want := range map[string]string{
		"moved_out_on": semantic.TimeRoleEnd, "move_out_date": semantic.TimeRoleEnd, "moved_in_on": semantic.TimeRoleStart,
		"withdrew_on": semantic.TimeRoleEnd, "vacated_at": semantic.TimeRoleEnd, "graduated_on": semantic.TimeRoleEnd,
	} {
		if got := timeRole(name); got != want {
			t.Errorf("timeRole(%q) = %q, want %q", name, got, want)
		}
	}
}
