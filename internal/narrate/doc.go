// Package narrate turns a verified result into the answer a person reads:
// a short Markdown text whose figures are taken from result cells, a compact
// table of the result, the checks and the confidence, and the choice of a
// chart from the shape of the data.
//
// Compose writes one headline sentence for each shape of result:
//
//	figure    one row of measures           "Revenue was **$1,234.50** in 2025.", "**22,807** orders in 2025."
//	ranking   a category and a measure      "… Germany leads with **$9.00**, then …"
//	trend     a time dimension and measures first and last period, peak and low
//	compare   labelled periods and measures  every period's value
//	share     a category and its share       the largest shares
//	list      anything else                 how many rows and the first few
//
// A single figure is stated from the reading of the question (the measure,
// whether it counts rows, the period label or "in all, as of" the as-of
// day), never by echoing the question back; without a reading (a model's
// own SQL) it falls back to the title.
//
// Every number in a headline is a formatted result cell, a row count, or
// text from the period label or the title. Differences between two cells
// (the change of a trend or a comparison) are never part of the headline:
// they follow it in a sentence that says they were computed from the cells.
//
// Numbers are formatted by the column's format: currency with two decimals
// and the currency symbol given in the input (none by default), percent
// multiplied by 100 with one decimal, integers without decimals, and other
// numbers with two decimals from 1 up and four significant digits below 1,
// all with thousands separators.
//
// ChooseChart picks a chart from the result's shape: a date or period
// dimension with numbers gives a line, a category with a number gives a bar
// (at most 30 categories, in the result's order), one row with one number
// gives a headline figure, two numeric columns and no dimension give a
// scatter; anything else gives no chart. Package chart draws a ChartSpec.
//
// The package is pure: no I/O, no clock, no randomness.
package narrate
