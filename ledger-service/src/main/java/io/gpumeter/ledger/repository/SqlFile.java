package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.vertx.mutiny.sqlclient.Tuple;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
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
     * The time buckets of a bucketed aggregation as a relation {@code k(bucket, b_start, b_end)}, from the bind
     * parameters $5 to $7 that {@link #withBuckets} adds.
     */
    static final String BUCKETS = "unnest($5::text[], $6::timestamptz[], $7::timestamptz[]) AS k(bucket, b_start, b_end)";

    /** The placeholders of allocated-hours.sql when no time bucket is asked for: the window itself. */
    static final Map<String, String> ALLOCATED_UNBUCKETED = Map.of("bucket_join", "", "w_start", "$1", "w_end", "$2");

    /** The placeholders of used-hours.sql when no time bucket is asked for: each segment as clipped to the window. */
    static final Map<String, String> USED_UNBUCKETED = Map.of("bucket", "NULL::text", "bucket_join", "",
            "seg_start", "o.a", "seg_end", "o.b");

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

    /** The tenant condition of a first step over one table: that tenant's rows, or every row when none is asked. */
    static String tenantFilter(String tenant) {
        return tenant == null ? "AND $4::text IS NULL" : "AND tenant = $4";
    }
}
