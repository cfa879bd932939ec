package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/quarrydata/quarry/internal/config"
	"github.com/quarrydata/quarry/internal/quarry"
	"github.com/quarrydata/quarry/internal/workflow"
)

// holder names this process in the nodes it starts: host:pid.
func holder() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(os.Getpid())
}

// liveHolder says whether the process that started a node is alive on
// this machine: another process must not run the node again meanwhile.
// A process on another machine cannot be asked, so it counts as gone.
func liveHolder(h string) bool {
	host, pid, ok := strings.Cut(h, ":")
	me, _ := os.Hostname()
	n, err := strconv.Atoi(pid)
	if !ok || err != nil || host != me || n == os.Getpid() || n <= 0 {
		return false
	}
	err = syscall.Kill(n, 0)
	return err == nil || err == syscall.EPERM
}

// refuseLive refuses to go on with a run whose node is being run by a
// live process.
func refuseLive(ws workflow.State) error {
	if ws.Status != workflow.StatusRunning || ws.Next == "" {
		return nil
	}
	n := ws.Node(ws.Next)
	if n == nil || n.Status != workflow.NodeRunning || !liveHolder(n.Holder) {
		return nil
	}
	_, pid, _ := strings.Cut(n.Holder, ":")
	return quarry.Errorf(quarry.KindInput, "run %s is running node %s in process %s; wait for it to end, or stop that process first", ws.RunID, n.ID, pid)
}

// localDir is where the project keeps this machine's own files (locks,
// marks, the models it checked): next to the state database when that is
// a file, else the project's .quarry folder — never a path made of the
// state's URL, which holds its password.
func localDir(cfg *config.Config) string {
	if config.StateIsURL(cfg.State) {
		return filepath.Join(cfg.Dir, ".quarry")
	}
	return filepath.Dir(cfg.State)
}

// tickLock holds the project's workflow-tick lock file while one tick
// runs, so that ticks started together run one after the other (the
// second then finds the runs the first started); release unlocks it.
func tickLock(cfg *config.Config) (release func(), err error) {
	dir := localDir(cfg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot create %s", dir)
	}
	path := filepath.Join(dir, "workflow-tick.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot open %s", path)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, quarry.Wrap(quarry.KindInput, err, "cannot lock %s", path)
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
