package semantic

import "testing"

// TestEnds: which end dates let a row go (a held row is no longer had
// after it), which say how a piece of work turned out, and which only
// say how long a row lasted.
func TestEnds(t *testing.T) {
	for _, tc := range []struct {
		entity, column   string
		holding, outcome bool
	}{
		{"employees", "termination_date", true, false},
		// Found from outside: a termination as HR systems shorten it.
		{"employees", "term_dt", true, false},
		{"courses", "term_start", false, false},
		{"drivers", "left_on", true, false},
		{"accounts", "churned_at", true, false},
		{"accounts", "closed_on", true, false},
		{"stores", "closed_on", true, false},
		{"subscriptions", "end_date", true, false},
		{"memberships", "ends_on", true, false},
		{"subscriptions", "cancelled_at", true, false},
		{"tickets", "closed_at", false, true},
		{"enrollments", "completed_at", false, true},
		{"shipments", "delivered_at", false, true},
		{"time_off", "end_date", false, false},
		{"promotions", "ends_on", false, false},
		{"campaigns", "ends_on", false, false},
		// Found from outside: customers closed are let go, a service
		// request or an order closed is done; a meter removed is let
		// go, not deleted.
		{"customers", "closed_on", true, false},
		{"vendors", "closed_at", true, false},
		{"service_requests", "closed_at", false, true},
		{"support_cases", "closed_on", false, true},
		{"work_orders", "closed_at", false, true},
		{"meters", "removed_on", true, false},
		// Found from outside: a customer's licence expiring lets no
		// customer go; a membership's own expiry does. A death ends a
		// row; a student's graduation too, a programme's is its outcome.
		{"customers", "licence_expires_on", false, false},
		{"travellers", "passport_expiry", false, false},
		{"memberships", "membership_expires_on", true, false},
		{"policies", "expires_on", true, false},
		{"pets", "deceased_on", true, false},
		{"students", "graduated_on", true, false},
		{"applications", "graduated_on", false, true},
		// Found from outside: a trial ending lets no subscription go;
		// nor does a billing period's end. The row's own end does.
		{"subscriptions", "trial_ends_on", false, false},
		{"subscriptions", "current_period_end", false, false},
		{"leases", "lease_end_date", true, false},
		{"leases", "actual_end_date", true, false},
		{"contracts", "valid_until", true, false},
		// Found from outside: a product delisted is had no more.
		{"products", "delisted_on", true, false},
		{"sellers", "suspended_on", true, false},
	} {
		if got := HoldingEnd(tc.entity, tc.column); got != tc.holding {
			t.Errorf("HoldingEnd(%s, %s) = %v", tc.entity, tc.column, got)
		}
		if got := OutcomeEnd(tc.entity, tc.column); got != tc.outcome {
			t.Errorf("OutcomeEnd(%s, %s) = %v", tc.entity, tc.column, got)
		}
	}
}

// TestRemovedIsNoDeletion: a meter's removed_on ends its holding; it is
// no deletion that makes the row unreal.
func TestRemovedIsNoDeletion(t *testing.T) {
	for name, want := range map[string]bool{"deleted_at": true, "deletion_date": true, "removed_on": false, "removed_at": false} {
		if got := DeletionDate(Column{Name: name, Type: "date"}); got != want {
			t.Errorf("DeletionDate(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestCalledOffAndPaymentRows: the states of a row let go before it went
// through, and the tables whose rows are payments, read alike by the
// planner and the analyst.
func TestCalledOffAndPaymentRows(t *testing.T) {
	for v, want := range map[string]bool{"cancelled": true, "Canceled": true, "void": true, "written_off": true, "bad-debt": true, "withdrawn": true, "skipped": true,
		"paid": false, "failed": false, "completed": false, "refunded": false, "pending": false} {
		if CalledOff(v) != want {
			t.Errorf("CalledOff(%q) = %v", v, !want)
		}
	}
	for v, want := range map[string]bool{"active": true, "Published": true, "lapsed": false, "pending": false, "scheduled": false} {
		if InForce(v) != want {
			t.Errorf("InForce(%q) = %v", v, !want)
		}
	}
	for e, want := range map[string]bool{"payments": true, "rent_payments": true, "transactions": true, "receipts": true, "donations": true, "leases": false, "payment_methods": false} {
		if PaymentRows(e) != want {
			t.Errorf("PaymentRows(%q) = %v", e, !want)
		}
	}
}
