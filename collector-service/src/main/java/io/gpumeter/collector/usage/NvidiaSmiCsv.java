package io.gpumeter.collector.usage;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The CSV that nvidia-smi's {@code --query-*} options print: a header naming the columns, unquoted cells. */
public final class NvidiaSmiCsv {

    /** Which query printed a body. */
    public enum Kind {
        /** {@code --query-gpu=… --format=csv}: one row per GPU. */
        GPU_QUERY,
        /** {@code --query-compute-apps=… --format=csv}: one row per process with a compute context. */
        COMPUTE_APPS
    }

    // nvidia-smi prints "YYYY/MM/DD HH:MM:SS.msec" in the host's local time
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu/MM/dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .toFormatter(Locale.ROOT)
            .withResolverStyle(ResolverStyle.STRICT);

    // no quote character: nvidia-smi never quotes, so a '"' in a process name is just a character
    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
            .setQuote(null)
            .setTrim(true)
            .setIgnoreEmptyLines(false)
            .get();

    private NvidiaSmiCsv() {
    }

    /** Tells the two CSV forms apart by the header: a {@code pid} column means per-process rows. */
    public static Kind detect(String body) {
        LineReader lines = new LineReader(body, LineReader.DEFAULT_MAX_LINE);
        while (lines.next()) {
            if (!lines.line().isBlank()) {
                for (String cell : lines.line().split(",", -1)) {
                    if (header(cell).name().equals("pid")) {
                        return Kind.COMPUTE_APPS;
                    }
                }
                return Kind.GPU_QUERY;
            }
        }
        throw new UsageParseException(1, "empty body: expected nvidia-smi CSV with a header line");
    }

    /** A header cell: its name in lower case, and the unit nvidia-smi puts in brackets after it, if any. */
    record Column(int index, String name, String unit) {
    }

    /** A data line and its cells. */
    record Row(int line, List<String> cells) {
        String cell(Column column) {
            return cells.get(column.index());
        }
    }

    /** A parsed body: the header's line and width, its columns by canonical name, and the data rows. */
    record Table(int headerLine, int width, Map<String, Column> columns, List<Row> rows) {
        Column column(String name) {
            return columns.get(name);
        }
    }

    /**
     * Reads the header and every row; rejects over-long lines, duplicate columns (after {@code aliases}) and rows
     * whose cell count differs from the header's.
     */
    static Table read(String body, Map<String, String> aliases) {
        LineReader lines = new LineReader(body, LineReader.DEFAULT_MAX_LINE);
        while (lines.next()) {
            // only the length and carriage-return checks: the CSV parser reads the same lines below
        }
        String text = body == null ? "" : body.startsWith("\uFEFF") ? body.substring(1) : body;
        Table table = null;
        List<Row> rows = new ArrayList<>();
        try (CSVParser parser = FORMAT.parse(new StringReader(text))) {
            for (CSVRecord record : parser) {
                int line = (int) record.getRecordNumber();
                List<String> cells = record.toList();
                if (cells.size() == 1 && cells.get(0).isEmpty()) {
                    continue;
                }
                if (table == null) {
                    table = new Table(line, cells.size(), columns(line, cells, aliases), rows);
                } else if (cells.size() != table.width()) {
                    throw new UsageParseException(line, "expected " + table.width() + " cells as in the header on line "
                            + table.headerLine() + ", found " + cells.size());
                } else {
                    rows.add(new Row(line, cells));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (table == null) {
            throw new UsageParseException(1, "empty body: expected nvidia-smi CSV with a header line");
        }
        return table;
    }

    private static Map<String, Column> columns(int line, List<String> cells, Map<String, String> aliases) {
        Map<String, Column> columns = new HashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            Column parsed = header(cells.get(i));
            if (parsed.name().isEmpty()) {
                throw new UsageParseException(line, "header column " + (i + 1) + " has no name");
            }
            String name = aliases.getOrDefault(parsed.name(), parsed.name());
            Column previous = columns.put(name, new Column(i, name, parsed.unit()));
            if (previous != null) {
                throw new UsageParseException(line, "column " + name + " appears twice (columns "
                        + (previous.index() + 1) + " and " + (i + 1) + ")");
            }
        }
        return columns;
    }

    private static Column header(String cell) {
        String text = cell.strip();
        String unit = null;
        int open = text.lastIndexOf(" [");
        if (text.endsWith("]") && open > 0) {
            unit = text.substring(open + 2, text.length() - 1).strip();
            text = text.substring(0, open).strip();
        }
        return new Column(-1, text.toLowerCase(Locale.ROOT), unit);
    }

    /** nvidia-smi's ways of saying "no value": {@code [N/A]}, {@code [Not Supported]}, any bracketed text, N/A, "". */
    static boolean missing(String cell) {
        return cell.isEmpty() || cell.equals("N/A") || cell.startsWith("[") && cell.endsWith("]");
    }

    /** The header's unit must be the one nvidia-smi prints for this column, when the header names one. */
    static void requireUnit(Table table, Column column, String unit) {
        if (column.unit() != null && !column.unit().equals(unit)) {
            throw new UsageParseException(table.headerLine(), "column " + column.name() + " is in ["
                    + column.unit() + "]; nvidia-smi prints [" + unit + "]");
        }
    }

    /** A non-negative number, with or without its unit after it; null when missing. */
    static Double number(Row row, Column column, String unit) {
        String cell = row.cell(column);
        if (missing(cell)) {
            return null;
        }
        String digits = unit != null && cell.endsWith(unit) ? cell.substring(0, cell.length() - unit.length()).strip()
                : cell;
        Double value = Decimals.plain(digits);
        if (value == null) {
            throw new UsageParseException(row.line(), "column " + column.name() + ": \"" + shown(cell)
                    + "\" is not a non-negative number" + (unit == null ? "" : " of " + unit));
        }
        return value;
    }

    /** A {@code 0x…} bitmask as nvidia-smi prints clock event reasons; null when missing. */
    static Double bitmask(Row row, Column column) {
        String cell = row.cell(column);
        if (missing(cell)) {
            return null;
        }
        String hex = cell.startsWith("0x") || cell.startsWith("0X") ? cell.substring(2) : "";
        if (hex.isEmpty() || hex.length() > 16 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new UsageParseException(row.line(), "column " + column.name() + ": \"" + shown(cell)
                    + "\" is not a hexadecimal bitmask");
        }
        return (double) Long.parseUnsignedLong(hex, 16);
    }

    /** A clocks-event reason's column: 1 for "Active", 0 for "Not Active"; null when missing. */
    static Double activeFlag(Row row, Column column) {
        String cell = row.cell(column);
        if (missing(cell)) {
            return null;
        }
        if (cell.equals("Active")) {
            return 1.0;
        }
        if (cell.equals("Not Active")) {
            return 0.0;
        }
        throw new UsageParseException(row.line(), "column " + column.name() + ": \"" + shown(cell)
                + "\" is neither Active nor Not Active");
    }

    /** A required text cell: present and not one of the missing-value forms. */
    static String text(Row row, Column column) {
        String cell = row.cell(column);
        if (missing(cell)) {
            throw new UsageParseException(row.line(), "column " + column.name() + " has no value");
        }
        return cell;
    }

    /** nvidia-smi's local timestamp, read in the host's zone. */
    static Instant timestamp(Row row, Column column, ZoneId zone) {
        String cell = text(row, column);
        try {
            return LocalDateTime.parse(cell, TIMESTAMP).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new UsageParseException(row.line(), "column " + column.name() + ": \"" + shown(cell)
                    + "\" is not a timestamp like 2026/07/03 22:22:01.444");
        }
    }

    static Column require(Table table, String name, String hint) {
        Column column = table.column(name);
        if (column == null) {
            throw new UsageParseException(table.headerLine(), "no " + name + " column; " + hint);
        }
        return column;
    }

    private static String shown(String cell) {
        return cell.length() > 80 ? cell.substring(0, 80) + "…" : cell;
    }
}
