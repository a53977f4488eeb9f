package io.gpumeter.ledger.governance.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;

/**
 * An incident's stable id: what names it in a URL and in a review kept elsewhere, the same whenever its books are
 * derived again from the same facts.
 *
 * <p>The natural key ({@code scope/subject/cause[/container|card]/start}) holds {@code /} and writes the start as the
 * instant in hand: a fact read in from a batch may carry nanoseconds where the same fact read back from the store
 * carries the microseconds PostgreSQL keeps, so the same incident derived twice could be keyed twice. The id is the
 * first 24 hex digits of SHA-256 over the cluster, the key without its start (scope, subject, cause and what tells
 * two incidents of one subject and cause apart: the container, the card, the kernel event) and the start cut to the
 * microsecond. A key whose last segment is no instant (a node-level OOM is keyed by its event) is kept whole.
 */
public final class IncidentIds {

    /** Hex digits of an id: 96 bits, as the change book's ids. */
    public static final int LENGTH = 24;

    private IncidentIds() {
    }

    public static String of(String cluster, Incident incident) {
        return of(cluster, incident.key(), incident.startedAt());
    }

    public static String of(String cluster, String key, Instant startedAt) {
        String text = cluster + '\n' + withoutStart(key) + '\n' + startedAt.truncatedTo(ChronoUnit.MICROS);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, LENGTH / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Whether {@code text} could be an id at all: a cheap refusal of anything else before a lookup. */
    public static boolean wellFormed(String text) {
        if (text == null || text.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The key without a trailing {@code /<instant>}; the key itself when its last segment is no instant. */
    static String withoutStart(String key) {
        int slash = key.lastIndexOf('/');
        if (slash < 0) {
            return key;
        }
        try {
            Instant.parse(key.substring(slash + 1));
            return key.substring(0, slash);
        } catch (DateTimeParseException e) {
            return key;
        }
    }
}
