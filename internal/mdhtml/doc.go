// Package mdhtml renders the Markdown of an answer as HTML that is safe to
// put into a page. An answer's prose is written by quarry or by a language
// model, and a model's text may carry whatever the data or a prompt put in
// it, so the renderer is safe by construction rather than by a sanitiser
// run afterwards: every character of the source reaches the output escaped
// (a character reference such as &amp; is passed on as one, which can only
// be text), and the only markup in the output is what the renderer itself
// writes, from a fixed set of elements and attributes:
//
//	p h1–h6 ul ol(start) li blockquote pre code strong em del hr br
//	table thead tbody tr th(align) td(align) a(href rel)
//
// It reads the Markdown that answers use, CommonMark's blocks and GFM's
// tables, strikethrough and bare links, with these differences:
//   - raw HTML is dropped (tags and comments, and whole HTML blocks), as
//     CommonMark renderers do when they run without unsafe HTML;
//   - an image becomes a plain link to its address with its alt text, so
//     that a model-written image never makes the browser fetch anything;
//   - a link keeps its address only where the scheme is http, https or
//     mailto, or where it has none and stays on the page's site (a
//     relative address, not //host); any other (javascript:, data:,
//     vbscript: and the like) leaves the text without a link;
//   - every link gets rel="nofollow noreferrer";
//   - emphasis is found by a simpler rule than CommonMark's delimiter
//     algorithm (a run opens where it is followed by text and closes at the
//     next run of its kind and length that follows text), and link
//     reference definitions are not read.
//
// The package does nothing at load: it has no package-level state to
// build, which is why quarry renders Markdown itself rather than through a
// general-purpose library whose initialisation every command would pay.
package mdhtml
