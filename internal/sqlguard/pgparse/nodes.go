//go:build cgo

package pgparse

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// knownNode reports whether n is one of the parse nodes PostgreSQL's
// grammar builds for a query that the walk knows: it checks what needs
// checking in them (function names, operators, types, fields, FROM items)
// in walk, and nothing else in them calls a function. Any other node
// fails closed. docs/guard.md has the table of nodes that reach a function.
func knownNode(n any) bool {
	switch n.(type) {
	case *pg_query.Node, *pg_query.List, *pg_query.String, *pg_query.Integer, *pg_query.Float,
		*pg_query.Boolean, *pg_query.BitString, *pg_query.A_Const, *pg_query.A_Star,
		*pg_query.A_Indices, *pg_query.A_ArrayExpr, *pg_query.ParamRef, *pg_query.Alias,
		*pg_query.ResTarget, *pg_query.WithClause, *pg_query.CTESearchClause, *pg_query.CTECycleClause,
		*pg_query.WindowDef, *pg_query.GroupingSet, *pg_query.TypeCast, *pg_query.CollateClause,
		*pg_query.BoolExpr, *pg_query.NullTest, *pg_query.BooleanTest, *pg_query.CaseExpr,
		*pg_query.CaseWhen, *pg_query.CoalesceExpr, *pg_query.MinMaxExpr, *pg_query.RowExpr,
		*pg_query.SQLValueFunction, *pg_query.GroupingFunc, *pg_query.NamedArgExpr,
		*pg_query.XmlExpr, *pg_query.XmlSerialize, *pg_query.RangeTableFuncCol, *pg_query.ColumnDef,
		*pg_query.JsonFormat, *pg_query.JsonReturning, *pg_query.JsonValueExpr, *pg_query.JsonOutput,
		*pg_query.JsonBehavior, *pg_query.JsonArgument, *pg_query.JsonFuncExpr, *pg_query.JsonIsPredicate,
		*pg_query.JsonTablePathSpec, *pg_query.JsonTableColumn, *pg_query.JsonKeyValue,
		*pg_query.JsonParseExpr, *pg_query.JsonScalarExpr, *pg_query.JsonSerializeExpr,
		*pg_query.JsonObjectConstructor, *pg_query.JsonArrayConstructor,
		*pg_query.JsonArrayQueryConstructor, *pg_query.JsonAggConstructor, *pg_query.JsonObjectAgg,
		*pg_query.JsonArrayAgg:
		return true
	}
	return false
}

// nodeLocation returns the location m records, or -1.
func nodeLocation(m protoreflect.Message) int {
	fd := m.Descriptor().Fields().ByName("location")
	if fd == nil || fd.Kind() != protoreflect.Int32Kind || fd.IsList() {
		return -1
	}
	return int(m.Get(fd).Int())
}
