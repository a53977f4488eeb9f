package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.csv.CsvCells;

import java.math.BigDecimal;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * A line of the pack's CSV files. Cells carry names from plans and from the cluster (a workload, a card id, an owner,
 * a scheduler's message), so each is defused as billing's reports are ({@link CsvCells}): a spreadsheet shows
 * "=HYPERLINK(...)" as text. A plain decimal ("-0.25") is a number to a spreadsheet, never a formula, and is written
 * as it is. A cell holding a comma, a quote or a line break is quoted.
 */
final class PackCsv {

    private static final Pattern PLAIN_NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE]-?[0-9]+)?");

    private PackCsv() {
    }

    /** One record, ended by a line feed; a null or missing cell is empty. */
    static String line(Object... cells) {
        StringJoiner line = new StringJoiner(",", "", "\n");
        for (Object cell : cells) {
            line.add(cell(cell));
        }
        return line.toString();
    }

    static String cell(Object value) {
        String text;
        if (value == null || value instanceof JsonNode n && (n.isMissingNode() || n.isNull())) {
            return "";
        } else if (value instanceof BigDecimal d) {
            text = d.toPlainString();
        } else if (value instanceof JsonNode n) {
            text = n.asText();
        } else {
            text = value.toString();
        }
        String safe = PLAIN_NUMBER.matcher(text).matches() ? text : CsvCells.neutralise(text);
        return safe.contains(",") || safe.contains("\"") || safe.contains("\n") || safe.contains("\r")
                ? "\"" + safe.replace("\"", "\"\"") + "\"" : safe;
    }
}
