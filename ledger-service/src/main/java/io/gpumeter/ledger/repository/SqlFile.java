package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query kept as a {@code .sql} resource beside the repositories, read once. Its {@code {name}} placeholders are
 * filled by the caller with SQL fixed in code (group columns, a tenant condition), never with user input.
 */
public final class SqlFile {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

    private final String name;
    private final String text;

    private SqlFile(String name, String text) {
        this.name = name;
        this.text = text;
    }

    /** The resource {@code name} next to this class. */
    public static SqlFile load(String name) {
        try (InputStream in = SqlFile.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no SQL resource " + name);
            }
            return new SqlFile(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text with every placeholder replaced; a placeholder without a value is an error. */
    public String fill(Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException(name + " needs a value for {" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /**
     * A join of each row to the time buckets {@code k(bucket, b_start, b_end)} of a bucketed aggregation (the bind
     * parameters $5 to $7 that {@link #withBuckets} adds) that its span [{@code start}, {@code end}) overlaps. The buckets are sorted and do not overlap, so a binary search of their starts ({@code width_bucket})
     * finds the first and last candidates and only those are compared: a month of day buckets over a million segments
     * was a nested loop of 31 million comparisons (3.0 s), and is 2.3 s this way.
     */
    static String bucketsOverlapping(String start, String end) {
        return "CROSS JOIN LATERAL (SELECT ($5::text[])[bucket_no] AS bucket, ($6::timestamptz[])[bucket_no] AS b_start,"
                + " ($7::timestamptz[])[bucket_no] AS b_end"
                + " FROM generate_series(greatest(1, width_bucket(" + start + ", $6::timestamptz[])),"
                + " least(cardinality($6::timestamptz[]), width_bucket(" + end + ", $6::timestamptz[]))) AS bucket_no"
                + " WHERE ($6::timestamptz[])[bucket_no] < " + end + " AND ($7::timestamptz[])[bucket_no] > " + start + ") AS k";
    }

    /** The placeholders of allocated-hours.sql: the pieces a segment overlaps. */
    static final Map<String, String> ALLOCATED_PIECES = Map.of(
            "bucket_join", bucketsOverlapping("s.seg_start", "coalesce(s.seg_end, $3)"));

    /**
     * The placeholders of used-hours.sql: the pieces that both a span of a card's minutes and the unit's segment
     * overlap, and the segment clipped to each.
     */
    static final Map<String, String> USED_PIECES = Map.of("bucket", "k.bucket",
            "bucket_join", bucketsOverlapping("greatest(o.minute, o.a)", "least(o.minute + o.span, o.b)"),
            "seg_start", "greatest(o.a, k.b_start)", "seg_end", "least(o.b, k.b_end)");

    /** {@code base} with {@code more} added. */
    static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
        Map<String, String> out = new java.util.HashMap<>(base);
        out.putAll(more);
        return out;
    }

    /** The parameters with the buckets' labels, starts and ends appended as $5 to $7; unchanged without buckets. */
    static Tuple withBuckets(Tuple parameters, List<TimeBucket> buckets) {
        if (buckets == null) {
            return parameters;
        }
        return parameters.addArrayOfString(buckets.stream().map(TimeBucket::label).toArray(String[]::new))
                .addArrayOfOffsetDateTime(buckets.stream().map(b -> FactRepository.toOffset(b.start())).toArray(OffsetDateTime[]::new))
                .addArrayOfOffsetDateTime(buckets.stream().map(b -> FactRepository.toOffset(b.end())).toArray(OffsetDateTime[]::new));
    }

    /** A row's group columns d0, d1, ... in the order of {@code dimensions}. */
    static List<String> groupValues(Row row, List<GroupDimension> dimensions) {
        List<String> values = new ArrayList<>(dimensions.size());
        dimensions.forEach(d -> values.add(row.getString("d" + d.ordinal())));
        return values;
    }

    /** The tenant condition of a first step over one table: that tenant's rows, or every row when none is asked. */
    static String tenantFilter(String tenant) {
        return tenant == null ? "AND $4::text IS NULL" : "AND tenant = $4";
    }
}
