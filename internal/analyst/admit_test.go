package analyst

import (
	"context"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/internal/event"
	"github.com/quarrydata/quarry/internal/quarry"
)

// TestAdmitHoldsWorkAfterTheStart: a run is recorded as started before it
// waits for a slot, runs nothing until it gets one, and a run stopped while
// it waits ends canceled with nothing sent to the database; slots bound how
// many runs work at once.
func TestAdmitHoldsWorkAfterTheStart(t *testing.T) {
	conn := &fakeConn{table: table()}
	sink := &memSink{}
	a := newAnalyst(conn)
	ctx, cancel := context.WithCancel(context.Background())
	a.Admit = func(ctx context.Context) (func(), error) {
		if got := sink.types(); len(got) != 1 || got[0] != event.RunStarted {
			t.Errorf("events before admission: %v", got)
		}
		cancel()
		<-ctx.Done()
		return nil, quarry.Wrap(quarry.KindCanceled, ctx.Err(), "stopped while waiting")
	}
	_, err := a.Run(ctx, event.NewRecorder("r1", a.Clock, sink), "SELECT n FROM t", &collect{})
	if quarry.KindOf(err) != quarry.KindCanceled || len(conn.calls) != 0 {
		t.Fatalf("err %v (%s), the connection saw %q", err, quarry.KindOf(err), conn.calls)
	}
	if st, err := event.Fold(sink.events); err != nil || st.Status != "canceled" {
		t.Errorf("the run: %+v, %v", st, err)
	}

	// Two slots, eight runs: never more than two at work.
	slots := make(chan struct{}, 2)
	var mu sync.Mutex
	working, most := 0, 0
	b := newAnalyst(&fakeConn{table: table()})
	b.Admit = func(ctx context.Context) (func(), error) {
		slots <- struct{}{}
		mu.Lock()
		working++
		most = max(most, working)
		mu.Unlock()
		return func() {
			mu.Lock()
			working--
			mu.Unlock()
			<-slots
		}, nil
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			c := *b
			c.Conn, c.Clock = &fakeConn{table: table()}, fixedClock()
			if _, err := c.Run(context.Background(), event.NewRecorder("r"+string(rune('a'+i)), c.Clock, &memSink{}), "SELECT n FROM t", &collect{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most > 2 || most == 0 {
		t.Errorf("%d runs worked at once with two slots", most)
	}
}
