package io.gpumeter.collector.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads the text of {@code nvidia-smi pmon}: {@code #} lines name the columns, rows print {@code -} for nothing. */
public final class NvidiaSmiPmon {

    private static final DateTimeFormatter DATE = DateTimeFormatter.BASIC_ISO_DATE;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private NvidiaSmiPmon() {
    }

    /**
     * @param zone       the zone of the host, for rows printed with their date and time
     * @param receivedAt the time of rows printed without
     */
    public static List<ProcessUtilization> parse(String body, ZoneId zone, Instant receivedAt) {
        LineReader lines = new LineReader(body, LineReader.DEFAULT_MAX_LINE);
        Map<String, Integer> columns = null;
        List<ProcessUtilization> rows = new ArrayList<>();
        boolean any = false;
        while (lines.next()) {
            String line = lines.line().strip();
            if (line.isEmpty()) {
                continue;
            }
            any = true;
            if (line.startsWith("#")) {
                String[] names = line.substring(1).strip().toLowerCase(Locale.ROOT).split("\\s+");
                if (List.of(names).contains("gpu") && List.of(names).contains("pid")) {
                    columns = header(lines.number(), names);
                }
                continue; // the units line, or any other comment
            }
            if (columns == null) {
                throw new UsageParseException(lines.number(), "data before the header line"
                        + " \"# gpu pid type sm mem … command\"");
            }
            ProcessUtilization row = row(lines.number(), line.split("\\s+"), columns, zone, receivedAt);
            if (row != null) {
                rows.add(row);
            }
        }
        if (columns == null) {
            throw new UsageParseException(1, any ? "no header line \"# gpu pid type sm mem … command\""
                    : "empty body: expected the output of nvidia-smi pmon");
        }
        return List.copyOf(rows);
    }

    private static Map<String, Integer> header(int line, String[] names) {
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            Integer previous = columns.put(names[i], i);
            if (previous != null) {
                throw new UsageParseException(line, "column " + names[i] + " appears twice (columns "
                        + (previous + 1) + " and " + (i + 1) + ")");
            }
        }
        Integer command = columns.get("command");
        if (command != null && command != names.length - 1) {
            throw new UsageParseException(line, "column command must be the last");
        }
        return columns;
    }

    /** The row's record, or null for a GPU without processes ({@code 0 - - - …}). */
    private static ProcessUtilization row(int line, String[] tokens, Map<String, Integer> columns, ZoneId zone,
                                          Instant receivedAt) {
        int width = columns.size();
        boolean hasCommand = columns.containsKey("command");
        if (tokens.length < width || tokens.length > width && !hasCommand) {
            throw new UsageParseException(line, "expected " + width + " columns as in the header, found "
                    + tokens.length);
        }
        String pidText = tokens[columns.get("pid")];
        if (pidText.equals("-")) {
            index(line, tokens[columns.get("gpu")]);
            return null;
        }
        Long pid = Decimals.integer(pidText);
        if (pid == null || pid <= 0 || pidText.startsWith("+")) {
            throw new UsageParseException(line, "pid \"" + pidText + "\" is not a process id");
        }
        String command = hasCommand ? String.join(" ", List.of(tokens).subList(width - 1, tokens.length)) : null;
        return new ProcessUtilization(index(line, tokens[columns.get("gpu")]), pid,
                dashless(cell(tokens, columns, "type")),
                percent(line, "sm", cell(tokens, columns, "sm")),
                percent(line, "mem", cell(tokens, columns, "mem")),
                dashless(command),
                at(line, cell(tokens, columns, "date"), cell(tokens, columns, "time"), zone, receivedAt));
    }

    private static int index(int line, String text) {
        Long index = Decimals.integer(text);
        if (index == null || index < 0 || index > Integer.MAX_VALUE || text.startsWith("+")) {
            throw new UsageParseException(line, "gpu \"" + text + "\" is not a GPU index");
        }
        return index.intValue();
    }

    private static Double percent(int line, String column, String text) {
        if (text == null || text.equals("-")) {
            return null;
        }
        Double value = Decimals.plain(text);
        if (value == null || value > 100) {
            throw new UsageParseException(line, column + " \"" + text + "\" is not a percentage 0..100");
        }
        return value / 100;
    }

    private static Instant at(int line, String date, String time, ZoneId zone, Instant receivedAt) {
        if (time == null) {
            return receivedAt;
        }
        try {
            LocalTime clock = LocalTime.parse(time, TIME);
            if (date != null) {
                return clock.atDate(LocalDate.parse(date, DATE)).atZone(zone).toInstant();
            }
            // a time without a date is today's, unless that lies ahead of arrival: then it was printed before midnight
            LocalDate today = receivedAt.atZone(zone).toLocalDate();
            Instant at = clock.atDate(today).atZone(zone).toInstant();
            return at.isAfter(receivedAt.plus(CLOCK_SKEW)) ? clock.atDate(today.minusDays(1)).atZone(zone).toInstant()
                    : at;
        } catch (DateTimeParseException e) {
            throw new UsageParseException(line, "date \"" + date + "\" and time \"" + time
                    + "\" are not YYYYMMDD and HH:MM:SS");
        }
    }

    private static String cell(String[] tokens, Map<String, Integer> columns, String name) {
        Integer index = columns.get(name);
        return index == null ? null : tokens[index];
    }

    private static String dashless(String text) {
        return text == null || text.equals("-") ? null : text;
    }
}
