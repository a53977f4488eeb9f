package io.gpumeter.alert.domain;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * An alert's identity as Alertmanager computes it (FNV-1a 64 over the sorted label pairs), so the alerts
 * alert-service sends come back through the webhook under the same fingerprint.
 */
public final class Fingerprint {

    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;
    private static final int SEPARATOR = 0xff;

    private Fingerprint() {
    }

    /** Sixteen lower-case hex digits, as Alertmanager prints it. */
    public static String of(Map<String, String> labels) {
        long hash = OFFSET;
        for (Map.Entry<String, String> label : new TreeMap<>(labels).entrySet()) {
            hash = add(hash, label.getKey());
            hash = addByte(hash, SEPARATOR);
            hash = add(hash, label.getValue());
            hash = addByte(hash, SEPARATOR);
        }
        return String.format("%016x", hash);
    }

    private static long add(long hash, String text) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash = addByte(hash, b & 0xff);
        }
        return hash;
    }

    private static long addByte(long hash, int b) {
        return (hash ^ b) * PRIME;
    }
}
