package mysql

import (
	"database/sql"
	"reflect"
)

// wireField is what the protocol's column definition says about a result
// column beyond what database/sql exposes.
type wireField struct {
	length uint32 // the display width: 1 for TINYINT(1) and BIT(1)
	ok     bool   // the width could be read
}

// wireFields reads the column definitions the driver received for rs.
//
// go-sql-driver does not expose a column's display width (its
// ColumnTypeLength is commented out), and without it a TINYINT(1) cannot
// be told from a TINYINT. So this reads it from the driver's rows with
// reflection: database/sql.Rows.rowsi → mysqlRows.rs.columns[i].length.
// Reading only, never
// writing, and with every step checked: when the layout is not the
// expected one (a driver upgrade), every field reports ok == false and the
// columns are typed without it. TestWireFields fails loudly in that case.
func wireFields(rs *sql.Rows, n int) (out []wireField) {
	out = make([]wireField, n)
	defer func() {
		if recover() != nil {
			out = make([]wireField, n)
		}
	}()
	v := reflect.ValueOf(rs)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return out
	}
	v = v.Elem().FieldByName("rowsi")
	if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() {
		return out
	}
	v = v.Elem()
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return out
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return out
	}
	set := v.FieldByName("rs")
	if !set.IsValid() || set.Kind() != reflect.Struct {
		return out
	}
	cols := set.FieldByName("columns")
	if !cols.IsValid() || cols.Kind() != reflect.Slice || cols.Len() != n {
		return out
	}
	for i := range n {
		f := cols.Index(i)
		if f.Kind() != reflect.Struct {
			return make([]wireField, n)
		}
		length := f.FieldByName("length")
		if !length.IsValid() || length.Kind() != reflect.Uint32 {
			return make([]wireField, n)
		}
		out[i] = wireField{length: uint32(length.Uint()), ok: true}
	}
	return out
}
