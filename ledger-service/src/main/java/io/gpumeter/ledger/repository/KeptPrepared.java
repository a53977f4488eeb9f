package io.gpumeter.ledger.repository;

/**
 * The statements each connection keeps prepared, each kind marked by the comment that opens its SQL; the pool keeps
 * a marked statement and plans every other one for its own parameters each time: an analytic query with optional
 * filters must not be held to one generic plan.
 */
public enum KeptPrepared {

    /**
     * The point lookups (Q1's occupants of one card, node or pod, and whether a card or node is known): PostgreSQL
     * plans one once per connection instead of on every call. Planning was half of such a read's database time
     * (0.30 ms against 0.13 ms for a prepared statement at 10,000 GPUs and a million pods).
     */
    POINT_LOOKUP("/* point lookup */ "),

    /**
     * The inserts a bulk load repeats slice after slice (a replay's versions, and the books it writes again). A
     * statement that is not kept prepared is first described by the database, and only then can the ledger encode its
     * parameters; the database answers that description after the statement queued before it. So the next slice never
     * waited at the database: after every slice of 5,000 versions the database sat idle while the ledger encoded the
     * next one (a third of each insert phase). Kept prepared, a slice's parameters go out at once and queue behind the
     * slice before. Their plans do not depend on the parameters (rows from arrays), so one plan serves. The deletes
     * that clear a slice's books are not kept: a generic plan for {@code pod_uid = ANY($2)} scanned every segment of
     * the cluster (a replay of 1,000 GPUs took 53.9 s instead of 32).
     */
    BULK_WRITE("/* bulk write */ ");

    /** Asked of every statement the ledger runs; {@code values()} would copy the array each time. */
    private static final KeptPrepared[] KINDS = values();

    private final String mark;

    KeptPrepared(String mark) {
        this.mark = mark;
    }

    /** The statement, marked as this kind. */
    public String sql(String statement) {
        return mark + statement;
    }

    /** Whether a statement is marked as any kind, to be kept prepared on its connection. */
    public static boolean isMarked(String sql) {
        for (KeptPrepared kind : KINDS) {
            if (sql.startsWith(kind.mark)) {
                return true;
            }
        }
        return false;
    }
}
