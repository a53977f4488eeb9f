package io.gpumeter.common.csv;

/**
 * Defuses CSV formula injection: a spreadsheet must show a cell such as "=HYPERLINK(...)" as text, never run it.
 */
public final class CsvCells {

    private CsvCells() {
    }

    /** Prefixes a single quote when the cell starts with '=', '+', '-', '@', a tab or a carriage return. */
    public static String neutralise(String cell) {
        if (cell == null || cell.isEmpty()) {
            return cell;
        }
        return switch (cell.charAt(0)) {
            case '=', '+', '-', '@', '\t', '\r' -> "'" + cell;
            default -> cell;
        };
    }
}
