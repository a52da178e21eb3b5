package dev.cryptoworker.cli.plan;

import dev.cryptoworker.cryptobox.ServerOperation;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.PlaintextSchema;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Reads what a sample query asks of each column on the servers. The SQL it reads ({@code docs/planner.md}):
 * one {@code SELECT} from the schema's table; select items are columns, {@code *}, {@code SUM},
 * {@code AVG}, {@code COUNT} of a column or {@code COUNT(*)}, and arithmetic on them; {@code WHERE}
 * conditions are {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code
 * BETWEEN}, {@code IN} against values, joined by {@code AND}, {@code OR} and {@code NOT}; {@code
 * GROUP BY} one column; {@code ORDER BY} and {@code LIMIT} run on the client. Columns are {@code
 * qualifier} when one family lists it, else {@code family.qualifier}; {@code rowkey} is the row key.
 * What no box can answer on the servers (joins, {@code LIKE}, {@code MIN}/{@code MAX}, {@code
 * HAVING}, ...) is read as unservable, with the reason.
 */
public final class SqlQueryReader {
  /** The pseudo-column naming the row key. */
  public static final String ROW_KEY = "rowkey";

  private final PlaintextSchema schema;

  public SqlQueryReader(PlaintextSchema schema) {
    this.schema = schema;
  }

  /**
   * What {@code query} asks of the columns.
   *
   * @throws InvalidQueryException if it is not SQL, not a SELECT, reads another table or an unknown column
   */
  public QueryReading read(SampleQuery query) {
    Statement statement;
    try {
      statement = CCJSqlParserUtil.parse(query.sql());
    } catch (JSQLParserException e) {
      String message = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
      throw new InvalidQueryException(query, "malformed SQL: " + message.lines().findFirst().orElse(message).strip());
    }
    if (!(statement instanceof Select)) {
      throw new InvalidQueryException(query, "not a SELECT: the planner plans reads (" + kind(statement) + ")");
    }
    try {
      if (!(statement instanceof PlainSelect select)) {
        throw new Unservable("a set operation (UNION, INTERSECT, EXCEPT) or WITH: the servers answer one SELECT at a time");
      }
      return new Reading(query, select).read();
    } catch (Unservable e) {
      return QueryReading.unservable(query, e.getMessage());
    }
  }

  private static String kind(Statement statement) {
    return statement.getClass().getSimpleName();
  }

  /** Why no box can answer a query on the servers. */
  private static final class Unservable extends Exception {
    private static final long serialVersionUID = 1L;

    Unservable(String reason) {
      super(reason, null, false, false);
    }
  }

  /** One query's reading. */
  private final class Reading {
    private final SampleQuery query;
    private final PlainSelect select;
    private final List<Demand> demands = new ArrayList<>();
    private final Set<String> measures = new LinkedHashSet<>();
    private final List<ColumnRef> measureColumns = new ArrayList<>();
    private String alias;
    private ColumnRef group;

    Reading(SampleQuery query, PlainSelect select) {
      this.query = query;
      this.select = select;
    }

    QueryReading read() throws Unservable {
      table();
      for (SelectItem<?> item : select.getSelectItems()) {
        selected(item.getExpression());
      }
      if (select.getGroupBy() != null) {
        grouped(select.getGroupBy().getGroupByExpressionList());
      }
      if (select.getHaving() != null) {
        throw new Unservable("HAVING compares aggregates, which stay encrypted on the servers");
      }
      for (ColumnRef measure : measureColumns) {
        demands.add(demand(measure, EnumSet.of(ServerOperation.SUM), "sum"));
      }
      if (group != null) {
        demands.add(demand(group, EnumSet.of(ServerOperation.GROUP, ServerOperation.SPLAYED_GROUP), "group-by"));
      }
      if (select.getWhere() != null) {
        condition(select.getWhere(), true);
      }
      return new QueryReading(query, demands, null);
    }

    private Demand demand(ColumnRef column, Set<ServerOperation> anyOf, String what) {
      return new Demand(column, anyOf, query, what, List.copyOf(measures));
    }

    private void table() throws Unservable {
      if (select.getJoins() != null && !select.getJoins().isEmpty()) {
        throw new Unservable("a join: the servers answer no join (each table is read on its own; the client would"
            + " join decrypted rows)");
      }
      if (!(select.getFromItem() instanceof Table table)) {
        throw new Unservable("reads from a nested SELECT or no table: the servers answer one SELECT over the table");
      }
      String name = unquote(table.getName());
      String expected = schema.table().tableName();
      if (!name.equals(expected) && !name.equals(expected.substring(expected.indexOf(':') + 1))) {
        throw new InvalidQueryException(query, "reads table '" + name + "', but the schema describes '" + expected + "'");
      }
      alias = table.getAlias() == null ? name : unquote(table.getAlias().getName());
    }

    private void selected(Expression e) throws Unservable {
      if (e instanceof AllColumns || isValue(e)) {
        return;
      }
      if (e instanceof Column c) {
        column(c);
        return;
      }
      if (e instanceof Function f) {
        aggregate(f);
        return;
      }
      if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication || e instanceof Division) {
        selected(((BinaryExpression) e).getLeftExpression());
        selected(((BinaryExpression) e).getRightExpression());
        return;
      }
      if (e instanceof ExpressionList<?> list && list.size() == 1) { // parentheses
        selected((Expression) list.get(0));
        return;
      }
      throw new Unservable("a select item the planner does not read (" + e + ")");
    }

    private void aggregate(Function f) throws Unservable {
      String name = f.getName().toUpperCase(Locale.ROOT);
      if (name.equals("MIN") || name.equals("MAX")) {
        throw new Unservable(name + ": no box returns an extreme on the servers (ASHE only adds); the client would"
            + " fetch and decrypt every value");
      }
      if (!name.equals("SUM") && !name.equals("AVG") && !name.equals("COUNT")) {
        throw new Unservable("the function " + name + ": the servers compute SUM, COUNT and AVG only");
      }
      if (f.isDistinct()) {
        throw new Unservable(name + "(DISTINCT ...): the servers add values, they do not tell distinct ones apart");
      }
      ExpressionList<?> parameters = f.getParameters();
      if (name.equals("COUNT") && (f.isAllColumns() || parameters != null && parameters.size() == 1
          && parameters.get(0) instanceof AllColumns)) {
        return; // the client counts the rows the servers select
      }
      if (parameters == null || parameters.size() != 1 || !(parameters.get(0) instanceof Column c)) {
        throw new Unservable(name + " of an expression: the servers add one column's values");
      }
      ColumnRef measure = column(c);
      if (measure.isRowKey()) {
        throw new Unservable(name + " over the row key: the servers add column values only");
      }
      measures.add(measure.qualifier());
      measureColumns.add(measure);
    }

    private void grouped(ExpressionList<?> columns) throws Unservable {
      if (columns.size() != 1) {
        throw new Unservable("GROUP BY " + columns.size() + " columns: the servers group by one column");
      }
      if (!(columns.get(0) instanceof Column c)) {
        throw new Unservable("GROUP BY an expression: the servers group by one column's stored values");
      }
      group = column(c);
      if (group.isRowKey()) {
        throw new Unservable("GROUP BY the row key: every row is its own group");
      }
      if (measures.isEmpty()) {
        throw new Unservable("a grouped count without a measure: the servers count per group the rows of a summed"
            + " column; ask COUNT(column) of a numeric column");
      }
    }

    /** A condition of the WHERE clause; {@code top} if it is the clause or one of its top-level ANDs. */
    private void condition(Expression e, boolean top) throws Unservable {
      if (e instanceof ExpressionList<?> list && list.size() == 1) { // parentheses
        condition(list.get(0), top);
      } else if (e instanceof AndExpression and) {
        condition(and.getLeftExpression(), top);
        condition(and.getRightExpression(), top);
      } else if (e instanceof OrExpression or) {
        ColumnRef in = oneColumnEqualities(or);
        if (in != null) {
          equality(in, top, false, "IN");
        } else {
          condition(or.getLeftExpression(), false);
          condition(or.getRightExpression(), false);
        }
      } else if (e instanceof NotExpression not) {
        condition(not.getExpression(), false);
      } else if (e instanceof EqualsTo eq) {
        equality(operand(eq), top, true, "equality");
      } else if (e instanceof NotEqualsTo ne) {
        inequality(operand(ne));
      } else if (e instanceof ComparisonOperator range) {
        range(operand(range), top);
      } else if (e instanceof Between between) {
        range(operand(between.getLeftExpression(), List.of(between.getBetweenExpressionStart(),
            between.getBetweenExpressionEnd())), top);
      } else if (e instanceof InExpression in) {
        if (!(in.getRightExpression() instanceof ExpressionList<?> values)) {
          throw new Unservable("IN with a subquery: the servers answer one SELECT at a time");
        }
        ColumnRef column = operand(in.getLeftExpression(), values);
        if (in.isNot()) {
          inequality(column);
        } else {
          equality(column, top, values.size() == 1, "IN");
        }
      } else if (e instanceof LikeExpression) {
        throw new Unservable("LIKE: no box matches patterns on the servers (DET and SSE test whole values)");
      } else if (e instanceof IsNullExpression) {
        throw new Unservable("IS NULL: the servers select rows by the values they hold");
      } else {
        throw new Unservable("a condition the planner does not read (" + e + ")");
      }
    }

    /** The column of an OR whose every branch is an equality (or IN) on that one column, else null. */
    private ColumnRef oneColumnEqualities(Expression e) {
      if (e instanceof ExpressionList<?> list && list.size() == 1) { // parentheses
        return oneColumnEqualities((Expression) list.get(0));
      }
      if (e instanceof OrExpression or) {
        ColumnRef left = oneColumnEqualities(or.getLeftExpression());
        ColumnRef right = oneColumnEqualities(or.getRightExpression());
        return left != null && left.equals(right) ? left : null;
      }
      try {
        if (e instanceof EqualsTo eq) {
          return operand(eq);
        }
        if (e instanceof InExpression in && !in.isNot() && in.getRightExpression() instanceof ExpressionList<?> values) {
          return operand(in.getLeftExpression(), values);
        }
      } catch (Unservable notOne) {
        return null;
      }
      return null;
    }

    private void equality(ColumnRef column, boolean top, boolean oneValue, String what) throws Unservable {
      if (column.isRowKey()) {
        rowKey(top, ServerOperation.ROW_LOOKUP, "row lookup");
        return;
      }
      Set<ServerOperation> anyOf = EnumSet.of(ServerOperation.EQUALITY);
      if (top) {
        anyOf.add(ServerOperation.INDEXED_EQUALITY);
        if (oneValue && !measures.isEmpty() && group == null) {
          anyOf.add(ServerOperation.SPLAYED_EQUALITY);
        }
      }
      demands.add(demand(column, anyOf, what));
    }

    private void inequality(ColumnRef column) throws Unservable {
      if (column.isRowKey()) {
        throw new Unservable("a row key compared with <> or NOT IN: the servers find rows by key lookups and ranges");
      }
      demands.add(demand(column, EnumSet.of(ServerOperation.EQUALITY), "inequality"));
    }

    private void range(ColumnRef column, boolean top) throws Unservable {
      if (column.isRowKey()) {
        rowKey(top, ServerOperation.ROW_RANGE, "row-key range");
        return;
      }
      demands.add(demand(column, EnumSet.of(ServerOperation.RANGE), "range"));
    }

    private void rowKey(boolean top, ServerOperation operation, String what) throws Unservable {
      if (!top) {
        throw new Unservable("a row-key condition under OR or NOT: the servers find rows by key lookups and ranges");
      }
      demands.add(demand(ColumnRef.ROW_KEY, EnumSet.of(operation), what));
    }

    /** The column a comparison tests against a value. */
    private ColumnRef operand(BinaryExpression comparison) throws Unservable {
      Expression left = comparison.getLeftExpression();
      Expression right = comparison.getRightExpression();
      return left instanceof Column ? operand(left, List.of(right)) : operand(right, List.of(left));
    }

    private ColumnRef operand(Expression column, List<? extends Expression> values) throws Unservable {
      if (!(column instanceof Column c)) {
        throw new Unservable("a condition on an expression (" + column + "): the servers compare stored column values");
      }
      for (Expression value : values) {
        if (!isValue(value)) {
          throw new Unservable("compares " + c + " with " + value + ", not with a value");
        }
      }
      return column(c);
    }

    private ColumnRef column(Column c) {
      String name = unquote(c.getColumnName());
      Table prefix = c.getTable();
      String named = prefix == null || prefix.getName() == null ? null : unquote(prefix.getName());
      String family = named != null && prefix.getSchemaName() == null && named.equals(alias) ? null : named;
      if (family != null) {
        FamilySchema f = schema.table().family(family).orElseThrow(() -> new InvalidQueryException(query,
            "unknown family '" + family + "' in column " + c + " (families: " + String.join(", ",
                schema.table().families().keySet()) + ")"));
        if (!f.isListed(name)) {
          throw new InvalidQueryException(query, "unknown column '" + family + "." + name + "' (family " + family
              + " lists " + String.join(", ", f.columns().keySet()) + ")");
        }
        return new ColumnRef(family, name);
      }
      if (name.equalsIgnoreCase(ROW_KEY)) {
        return ColumnRef.ROW_KEY;
      }
      List<String> families = schema.table().families().values().stream().filter(f -> f.isListed(name))
          .map(FamilySchema::name).toList();
      if (families.isEmpty()) {
        throw new InvalidQueryException(query, "unknown column '" + name + "' (no family lists it; the row key is "
            + ROW_KEY + ")");
      }
      if (families.size() > 1) {
        throw new InvalidQueryException(query, "column '" + name + "' is listed in families "
            + String.join(", ", families) + ": write family." + name);
      }
      return new ColumnRef(families.get(0), name);
    }
  }

  private static boolean isValue(Expression e) {
    return e instanceof StringValue || e instanceof LongValue || e instanceof DoubleValue || e instanceof HexValue
        || e instanceof DateValue || e instanceof TimestampValue || e instanceof TimeValue || e instanceof NullValue
        || e instanceof JdbcParameter || e instanceof JdbcNamedParameter
        || e instanceof SignedExpression s && isValue(s.getExpression());
  }

  private static String unquote(String name) {
    if (name.length() >= 2 && (name.startsWith("\"") && name.endsWith("\"") || name.startsWith("`") && name.endsWith("`"))) {
      return name.substring(1, name.length() - 1);
    }
    return name;
  }
}
