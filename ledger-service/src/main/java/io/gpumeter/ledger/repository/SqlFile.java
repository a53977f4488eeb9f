package io.gpumeter.ledger.repository;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

    /** The tenant condition of a first step over one table: that tenant's rows, or every row when none is asked. */
    static String tenantFilter(String tenant) {
        return tenant == null ? "AND $4::text IS NULL" : "AND tenant = $4";
    }
}
