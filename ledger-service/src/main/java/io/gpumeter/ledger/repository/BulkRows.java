package io.gpumeter.ledger.repository;

import io.vertx.mutiny.sqlclient.Tuple;

import java.util.List;
import java.util.function.Function;

/**
 * Rows about to be written by one statement, as its parameters: built by the caller where it chooses, off the
 * connection's event loop. A slice of a bulk replay's derived books is thousands of rows, and turning them into
 * column arrays on the event loop kept the connection's next statement waiting while the transaction held its lock.
 */
public record BulkRows(Tuple parameters) {

    static <T> BulkRows of(List<T> rows, Function<List<T>, Tuple> parameters) {
        return new BulkRows(rows.isEmpty() ? null : parameters.apply(rows));
    }

    /** No rows: the statement is not run. */
    public boolean isEmpty() {
        return parameters == null;
    }
}
