package io.gpumeter.common.json;

import java.time.Instant;

/**
 * The UTC form of an instant that Kubernetes, the facts and every answer use ({@code 2026-05-01T08:00:00.250Z}),
 * written and read without {@link java.time.format.DateTimeFormatter}, whose general machinery was a fifth of a bulk
 * replay's time in the ledger and the collector. {@link #format} writes exactly what {@link Instant#toString()} writes;
 * {@link #parseUtc} reads only {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with fields in range and answers {@code null}
 * for any other text, which the caller then reads with the general parser: what is accepted, and how, is unchanged.
 */
public final class IsoInstants {

    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the four-digit years {@link #format} writes itself. */
    private static final long FIRST = -62_167_219_200L;
    private static final long LAST = 253_402_300_799L;

    private IsoInstants() {
    }

    /** As {@link Instant#toString()}: the fraction in groups of three digits, none when it is zero. */
    public static String format(Instant instant) {
        char[] out = new char[MAX_LENGTH];
        int n = format(instant, out);
        return n < 0 ? instant.toString() : new String(out, 0, n);
    }

    /** The longest text {@link #format(Instant, char[])} writes. */
    public static final int MAX_LENGTH = 30;

    /**
     * Writes what {@link #format(Instant)} answers into {@code out} (at least {@link #MAX_LENGTH} long) and returns
     * its length, or -1 for a year outside 0000–9999; a writer of JSON takes the characters without a String.
     */
    public static int format(Instant instant, char[] out) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST || seconds > LAST) {
            return -1;
        }
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        // The proleptic Gregorian date of a day count (Hinnant's civil_from_days), in eras of 400 years from
        // 0000-03-01 so that a leap day ends its year: plain arithmetic where LocalDateTime checks every field's range.
        long shifted = days + 719_468L;
        long era = Math.floorDiv(shifted, 146_097L);
        int dayOfEra = (int) (shifted - era * 146_097L);
        int yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        int month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);
        int nano = instant.getNano();
        int n = 0;
        n = digits(out, n, year, 4);
        out[n++] = '-';
        n = digits(out, n, month, 2);
        out[n++] = '-';
        n = digits(out, n, day, 2);
        out[n++] = 'T';
        n = digits(out, n, secondOfDay / 3_600, 2);
        out[n++] = ':';
        n = digits(out, n, secondOfDay / 60 % 60, 2);
        out[n++] = ':';
        n = digits(out, n, secondOfDay % 60, 2);
        if (nano != 0) {
            out[n++] = '.';
            if (nano % 1_000_000 == 0) {
                n = digits(out, n, nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                n = digits(out, n, nano / 1_000, 6);
            } else {
                n = digits(out, n, nano, 9);
            }
        }
        out[n++] = 'Z';
        return n;
    }

    /**
     * Reads {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, every field in range (a leap second, hour 24, a lower-case
     * {@code t} or {@code z}, an offset or a sign are left to the general parser); {@code null} for anything else.
     */
    public static Instant parseUtc(CharSequence text) {
        int length = text.length();
        if (length < 20 || length > 30 || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59) {
            return null;
        }
        int nano = 0;
        int end = length - 1;
        if (end > 19) {
            int fraction = end - 20;
            if (text.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            nano = number(text, 20, fraction);
            if (nano < 0) {
                return null;
            }
            for (int i = fraction; i < 9; i++) {
                nano *= 10;
            }
        }
        if (day > lengthOfMonth(year, month)) {
            return null;
        }
        long seconds = epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second;
        return Instant.ofEpochSecond(seconds, nano);
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil), the inverse of {@link #format}'s. */
    private static long epochDay(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        int yearOfEra = (int) (y - era * 400);
        int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468L;
    }

    /** The decimal of {@code count} ASCII digits from {@code start}; -1 if any is not a digit. */
    private static int number(CharSequence text, int start, int count) {
        int value = 0;
        for (int i = start; i < start + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
        return at + width;
    }
}
