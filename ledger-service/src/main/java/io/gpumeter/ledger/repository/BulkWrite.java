package io.gpumeter.ledger.repository;

/**
 * The inserts a bulk load repeats slice after slice (a replay's versions, and the books it writes again): each
 * connection keeps them prepared, like the {@link PointLookup point lookups}.
 * <p>
 * A statement that is not kept prepared is first described by the database, and only then can the ledger encode its
 * parameters; the database answers that description after the statement queued before it. So the next slice never
 * waited at the database: after every slice of 5,000 versions the database sat idle while the ledger encoded the
 * next one (a third of each insert phase). Kept prepared, a slice's parameters go out at once and queue behind the
 * slice before. Their plans do not depend on the parameters (rows from arrays), so one plan serves. The deletes
 * that clear a slice's books are not kept: a generic plan for {@code pod_uid = ANY($2)} scanned every segment of the
 * cluster (a replay of 1,000 GPUs took 53.9 s instead of 34.3).
 */
public final class BulkWrite {

    /** The comment that opens every bulk write's SQL, and the pool's sign to keep it prepared. */
    private static final String MARK = "/* bulk write */ ";

    private BulkWrite() {
    }

    /** The statement, marked as a bulk write. */
    public static String sql(String statement) {
        return MARK + statement;
    }

    /** Whether a statement is a bulk write, to be kept prepared on its connection. */
    public static boolean isMarked(String sql) {
        return sql.startsWith(MARK);
    }
}
