package deliver

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf16"

	"github.com/quarrydata/quarry/internal/quarry"
)

// Slack's limits on what an incoming webhook accepts: a message of at most
// 50 blocks, a header's plain text of at most 150 characters, a section's
// text of at most 3000; a longer message is refused as invalid_blocks.
// https://docs.slack.dev/reference/block-kit/blocks
const (
	slackMaxBlocks  = 50
	slackMaxHeader  = 150
	slackMaxSection = 3000
	slackMaxText    = 3000 // the fallback text; Slack truncates at 40,000
)

// slackMessage is the body of a post to an incoming webhook: the text is
// the fallback shown in notifications, the blocks the message itself.
type slackMessage struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks,omitempty"`
}

type slackBlock struct {
	Type     string      `json:"type"` // header, section, context
	Text     *slackText  `json:"text,omitempty"`
	Elements []slackText `json:"elements,omitempty"`
}

type slackText struct {
	Type  string `json:"type"` // plain_text, mrkdwn
	Text  string `json:"text"`
	Emoji bool   `json:"emoji,omitempty"`
}

// slackBody is Slack's body for m: a header with the title, the body in
// mrkdwn sections of at most 3000 characters, a context line with the link,
// and the plain text as the fallback.
func slackBody(m Message) ([]byte, error) {
	var msg slackMessage
	title := oneLine(m.Title)
	if title != "" {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "header", Text: &slackText{Type: "plain_text", Text: cut(title, slackMaxHeader), Emoji: true}})
	}
	body := m.Markdown
	if strings.TrimSpace(body) == "" {
		body = m.Text
	}
	body = strings.TrimSpace(mrkdwn(body))
	parts := split(body, slackMaxSection)
	room := slackMaxBlocks - len(msg.Blocks)
	if m.Link != "" {
		room-- // the link's line
	}
	if len(parts) > room {
		parts = parts[:room]
		parts[room-1] = cut(parts[room-1]+"\n…", slackMaxSection)
	}
	for _, part := range parts {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "section", Text: &slackText{Type: "mrkdwn", Text: part}})
	}
	if m.Link != "" {
		msg.Blocks = append(msg.Blocks, slackBlock{Type: "context", Elements: []slackText{{Type: "mrkdwn", Text: "<" + slackURL(m.Link) + "|Open in quarry>"}}})
	}
	fallback := strings.TrimSpace(title + "\n" + strings.TrimSpace(m.Text))
	if fallback == "" {
		fallback = body
	}
	msg.Text = cut(escapeMrkdwn(fallback), slackMaxText)
	return json.Marshal(msg)
}

// slackReason explains a refusal from a Slack incoming webhook by the
// error string Slack answers with (docs.slack.dev, "Handling errors").
func slackReason(ch Channel, status int, answer string) (quarry.Kind, string, string) {
	code, _, _ := strings.Cut(strings.TrimSpace(answer), " ")
	switch code {
	case "no_service", "no_service_id", "no_team", "team_disabled", "invalid_token", "invalid_team":
		return quarry.KindConfig, "", "the webhook URL is revoked or wrong: create a new incoming webhook in Slack and set its URL"
	case "channel_not_found", "channel_is_archived", "user_not_found":
		return quarry.KindConfig, "", "the Slack channel the webhook posts to is gone or archived: create an incoming webhook for a live channel and set its URL"
	case "action_prohibited", "posting_to_general_channel_denied":
		return quarry.KindForbidden, "", "the workspace does not let this webhook post there: ask a Slack admin, or use another channel"
	case "invalid_payload", "no_text", "missing_text_or_fallback_or_attachments", "invalid_blocks", "invalid_blocks_format", "too_many_attachments":
		return quarry.KindInput, "", "the receiver could not read quarry's message: if it is not Slack, check that it takes Slack's format; otherwise report it as a quarry bug"
	}
	if status == http.StatusNotFound || status == http.StatusGone || status == http.StatusUnauthorized || status == http.StatusForbidden {
		return quarry.KindConfig, "", "the webhook URL is revoked or wrong: create a new incoming webhook in Slack and set its URL"
	}
	return webhookReason(ch, status, answer)
}

// escapeMrkdwn escapes the three characters Slack reads as control
// sequences.
func escapeMrkdwn(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// slackURL makes a URL safe inside <url|text>.
func slackURL(u string) string {
	return strings.NewReplacer("|", "%7C", "<", "%3C", ">", "%3E", " ", "%20").Replace(u)
}

var (
	mdLink    = regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*$`)
	mdBold    = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	mdItalic  = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*\n]*)\*`)
	mdBullet  = regexp.MustCompile(`^(\s*)[*+-]\s+`)
)

// mrkdwn turns the common Markdown a monitor writes into Slack's mrkdwn:
// &, < and > escaped, [text](url) as <url|text>, **bold** and headings as
// *bold*, *italic* as _italic_, list items as bullets. Code is escaped and
// otherwise left alone.
func mrkdwn(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	inCode := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			lines[i] = escapeMrkdwn(line)
			continue
		}
		if inCode {
			lines[i] = escapeMrkdwn(line)
			continue
		}
		lines[i] = mrkdwnLine(line)
	}
	return strings.Join(lines, "\n")
}

// mrkdwnLine converts one line outside a code block.
func mrkdwnLine(line string) string {
	var b strings.Builder
	last := 0
	for _, m := range mdLink.FindAllStringSubmatchIndex(line, -1) {
		b.WriteString(inline(line[last:m[0]]))
		b.WriteString("<" + slackURL(line[m[4]:m[5]]) + "|" + escapeMrkdwn(line[m[2]:m[3]]) + ">")
		last = m[1]
	}
	b.WriteString(inline(line[last:]))
	out := b.String()
	if h := mdHeading.FindStringSubmatch(out); h != nil {
		return "*" + strings.Trim(h[1], "*") + "*"
	}
	return mdBullet.ReplaceAllString(out, "${1}• ")
}

// inline converts emphasis in text that holds no link.
func inline(s string) string {
	if strings.Contains(s, "`") {
		return escapeMrkdwn(s) // leave code spans as they are
	}
	s = escapeMrkdwn(s)
	s = mdBold.ReplaceAllString(s, "\x00$1$2\x00")
	s = mdItalic.ReplaceAllString(s, "${1}_${2}_")
	return strings.ReplaceAll(s, "\x00", "*")
}

// oneLine folds a title to one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// slackLen is the length of s as Slack counts it (UTF-16 code units).
func slackLen(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}

// cut shortens s to at most limit (as Slack counts), ending with "…".
func cut(s string, limit int) string {
	if slackLen(s) <= limit {
		return s
	}
	n := 0
	for i, r := range s {
		if n+max(utf16.RuneLen(r), 1)+1 > limit {
			return s[:i] + "…"
		}
		n += max(utf16.RuneLen(r), 1)
	}
	return s
}

// split cuts s into parts of at most limit, at line ends where it can, at
// spaces otherwise.
func split(s string, limit int) []string {
	var parts []string
	var cur strings.Builder
	flush := func() {
		if t := strings.TrimRight(cur.String(), "\n"); strings.TrimSpace(t) != "" {
			parts = append(parts, t)
		}
		cur.Reset()
	}
	for _, line := range strings.Split(s, "\n") {
		for slackLen(line) > limit {
			head := cut(line, limit)
			head = strings.TrimSuffix(head, "…")
			if i := strings.LastIndex(head, " "); i > limit/2 {
				head = head[:i]
			}
			flush()
			parts = append(parts, head)
			line = strings.TrimLeft(line[len(head):], " ")
		}
		if slackLen(cur.String())+slackLen(line)+1 > limit {
			flush()
		}
		cur.WriteString(line)
		cur.WriteString("\n")
	}
	flush()
	return parts
}
