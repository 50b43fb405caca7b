package progress

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Mode says when a Bar shows.
type Mode int

const (
	// Auto shows the bar when the writer is a terminal and the work has
	// lasted over Delay.
	Auto Mode = iota
	// Always shows it wherever it writes, from the first update, as lines
	// where the writer is not a terminal (--progress).
	Always
	// Never shows nothing (--quiet).
	Never
)

// Delay is how long work runs before Auto shows its bar: work that ends
// sooner shows nothing.
const Delay = time.Second

// lineEvery is how often a bar that is not on a terminal prints a line.
const lineEvery = 5 * time.Second

// Bar is the progress of one piece of work. Its methods may be called from
// several goroutines.
type Bar struct {
	mu          sync.Mutex
	w           io.Writer
	label, unit string
	show, tty   bool
	forced      bool // Always: shown from the first update
	finished    bool // the line of done = total shown
	start, last time.Time
	width       int // of the line last drawn on a terminal, in columns
	now         func() time.Time
	// columns returns the terminal's width, 0 where it is not known.
	columns func() int
	// done and total are the last Update's, which Beat draws again.
	done, total int
}

// New returns the bar of work called label ("prefixgen synth") counting
// unit ("designs"), drawn on w as mode says.
func New(w io.Writer, label, unit string, mode Mode) *Bar {
	tty := IsTerminal(w)
	return &Bar{w: w, label: label, unit: unit, show: mode == Always || mode == Auto && tty, forced: mode == Always, tty: tty, start: time.Now(), now: time.Now,
		columns: func() int { return terminalColumns(w) }}
}

// IsTerminal reports whether w is a character device, as a terminal is.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && st.Mode()&os.ModeNamedPipe == 0
}

// stopped is set by Stop: no bar draws again.
var stopped atomic.Bool

// live are the bars whose line is on a terminal now, which Stop clears.
var (
	liveMu sync.Mutex
	live   = map[*Bar]bool{}
)

// Stop clears the line of every bar drawn on a terminal, and keeps every
// bar from drawing again: the process is ending, and the line it writes
// last stands alone.
func Stop() {
	stopped.Store(true)
	liveMu.Lock()
	bars := make([]*Bar, 0, len(live))
	for b := range live {
		bars = append(bars, b)
	}
	liveMu.Unlock()
	for _, b := range bars {
		b.mu.Lock()
		// A stop is most often an interrupt, whose ^C the terminal
		// echoed after the bar: two columns more.
		b.clear(2)
		b.mu.Unlock()
	}
}

// Update shows that done of total units are done.
func (b *Bar) Update(done, total int) {
	if b == nil || !b.show || total <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if stopped.Load() {
		return
	}
	b.done, b.total = done, total
	if done >= total && b.finished {
		return // the last line is shown once
	}
	now := b.now()
	elapsed := now.Sub(b.start)
	if elapsed < Delay && !b.forced {
		return
	}
	if b.tty {
		if now.Sub(b.last) < 100*time.Millisecond && done < total {
			return
		}
		b.draw(Line(b.label, b.unit, done, total, elapsed))
	} else {
		if !b.last.IsZero() && now.Sub(b.last) < lineEvery && done < total {
			return
		}
		fmt.Fprintln(b.w, Line(b.label, b.unit, done, total, elapsed))
	}
	b.last = now
	b.finished = done >= total
}

// Beat draws the last Update again every period, so that a step that
// lasts shows its time so far, until the returned stop is called (once or
// more).
func (b *Bar) Beat(period time.Duration) (stop func()) {
	if b == nil || !b.show {
		return func() {}
	}
	quit := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				b.mu.Lock()
				done, total := b.done, b.total
				b.mu.Unlock()
				if done < total {
					b.Update(done, total)
				}
			}
		}
	}()
	return func() {
		once.Do(func() { close(quit) })
		wg.Wait()
	}
}

// draw writes line over the bar's line on a terminal; b.mu is held.
func (b *Bar) draw(line string) {
	// A line as wide as the terminal wraps, and is then drawn again
	// below itself: it is cut to one column less, and so is the padding
	// that covers a longer line before (the terminal may have been made
	// narrower since).
	cols := b.columns()
	if cols > 1 && utf8.RuneCountInString(line) >= cols {
		line = string([]rune(line)[:cols-2]) + "…"
	}
	n := utf8.RuneCountInString(line)
	pad := max(b.width-n, 0)
	if cols > 1 {
		pad = min(pad, cols-1-n)
	}
	fmt.Fprintf(b.w, "\r%s%s", line, strings.Repeat(" ", pad))
	b.width = n
	liveMu.Lock()
	live[b] = true
	liveMu.Unlock()
}

// clear clears the bar's line from a terminal, and extra columns after
// it, within one column less than the terminal's width; b.mu is held.
func (b *Bar) clear(extra int) {
	if b.tty && b.width > 0 {
		width := b.width + extra
		if cols := b.columns(); cols > 1 {
			width = min(width, cols-1)
		}
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", width))
		b.width = 0
	}
	liveMu.Lock()
	delete(live, b)
	liveMu.Unlock()
}

// Done clears the bar's line from a terminal; elsewhere it does nothing.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clear(0)
}

// Println writes line and a newline to the bar's writer, above the bar:
// on a terminal the bar's line is cleared first and drawn again after.
func (b *Bar) Println(line string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	drawn := b.tty && b.width > 0
	b.clear(0)
	fmt.Fprintln(b.w, line)
	if drawn && !stopped.Load() {
		b.draw(Line(b.label, b.unit, b.done, b.total, b.now().Sub(b.start)))
	}
}

// Writer returns a writer whose lines are written above the bar, each
// whole line as Println writes it, so that a tool's log shown while the
// bar is drawn keeps lines of its own; bytes after the last newline wait
// for the next, or for Close.
func (b *Bar) Writer() io.WriteCloser { return &lineWriter{bar: b} }

// lineWriter is the writer of Bar.Writer.
type lineWriter struct {
	bar *Bar
	mu  sync.Mutex
	buf []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.bar.Println(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

// Close writes the last line, if it had no newline.
func (l *lineWriter) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.bar.Println(string(l.buf))
		l.buf = nil
	}
	return nil
}

// Line is one line of progress: "prefixgen synth: 12/65 designs, 1m20s
// left", the time left estimated from the rate so far.
func Line(label, unit string, done, total int, elapsed time.Duration) string {
	s := fmt.Sprintf("%s: %d/%d %s", label, done, total, unit)
	switch {
	case done >= total:
		s += ", done in " + round(elapsed)
	case done > 0:
		left := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
		s += ", " + round(left) + " left"
	default:
		s += ", " + round(elapsed) + " so far"
	}
	return s
}

// round writes d to the second, or to a tenth under ten seconds.
func round(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
