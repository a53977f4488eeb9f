package io.gpumeter.common.sql;

import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A list query cut by the database: one statement reads the window's rows in a total order and counts the whole
 * list with {@code count(*) OVER ()}; only a window past the end, which has no row to carry that count, counts the
 * same filter on its own.
 */
public final class PagedQuery {

    private PagedQuery() {
    }

    /**
     * The window of {@code SELECT columns from ORDER BY order}.
     *
     * @param from   {@code FROM …} and {@code WHERE …}, binding {@code values} as {@code $1…$n}
     * @param order  an order that no two rows tie on, so that pages neither overlap nor skip
     * @param window the whole list (LIMIT ALL) or one page of it
     */
    public static <T> Uni<Page<T>> run(Pool pool, String columns, String from, String order, List<Object> values,
                                       Window window, Function<Row, T> map) {
        int n = values.size();
        List<Object> bound = new ArrayList<>(values);
        bound.add(window.limit() == null ? null : window.limit().longValue());
        bound.add((long) window.offset());
        return pool.preparedQuery("SELECT " + columns + ", count(*) OVER () AS total_count " + from + " ORDER BY " + order
                        + " LIMIT $" + (n + 1) + " OFFSET $" + (n + 2))
                .execute(Tuple.from(bound))
                .chain(rows -> {
                    List<T> items = new ArrayList<>();
                    long total = 0;
                    for (Row r : rows) {
                        items.add(map.apply(r));
                        total = r.getLong("total_count");
                    }
                    if (items.isEmpty() && window.offset() > 0) {
                        return pool.preparedQuery("SELECT count(*) AS total_count " + from).execute(Tuple.from(values))
                                .map(counted -> Page.<T>of(List.of(), counted.iterator().next().getLong("total_count")));
                    }
                    return Uni.createFrom().item(Page.of(items, total));
                });
    }
}
