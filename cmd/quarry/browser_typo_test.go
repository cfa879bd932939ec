package main

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// browserDidYouMean asks a misspelt question in the web chat: the card
// offers the corrected question, and clicking it asks that question.
func browserDidYouMean(t *testing.T, s *servedQuarry) {
	ctx := newBrowser(t)
	uiDo(t, ctx, "open the web chat",
		chromedp.EmulateViewport(1360, 860),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#composer-input")),
	)
	watchPage(t, ctx)
	uiAsk(t, ctx, "revnue by chanel")
	const last = "#turns > .turn:last-child"
	if got := uiEval[string](t, ctx, `(document.querySelector("`+last+` .notice .did-you-mean") || {}).textContent || ""`); got != "Did you mean: revenue by channel?" {
		t.Fatalf("the unanswered card offers %q, want Did you mean: revenue by channel?", got)
	}
	n := uiEval[int](t, ctx, `document.querySelectorAll("#turns > .turn").length`)
	uiDo(t, ctx, "click the corrected question", chromedp.Click(chromedp.CSS(last+` .did-you-mean button`)))
	uiWaitFor(t, ctx, "the answer to the corrected question", `document.querySelectorAll("#turns > .turn").length === `+strconv.Itoa(n+1)+` && document.querySelector("#turns > .turn:last-child .turn-body > article") !== null`)
	if got := uiEval[string](t, ctx, `document.querySelector("`+last+` .question-bubble").firstChild.textContent`); got != "revenue by channel" {
		t.Errorf("clicking the correction asked %q", got)
	}
	if k := uiEval[int](t, ctx, `document.querySelectorAll("`+last+` .answer").length`); k != 1 {
		t.Errorf("the corrected question was not answered: %s", uiEval[string](t, ctx, `document.querySelector("`+last+`").textContent`))
	}
	pageProblems(t, ctx)
}
