package io.gpumeter.alert.review;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Kubernetes names for what a review exports: readable from the incident id, unique by a hash of it. */
final class ExportNames {

    private ExportNames() {
    }

    /** {@code gpumeter-review-<id as a DNS label, cut>-<8 hex of the id>-<n>}: a DNS label of at most 63 characters. */
    static String object(String incidentId, int n) {
        String slug = incidentId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String suffix = "-" + hash(incidentId) + "-" + n;
        int room = 63 - "gpumeter-review-".length() - suffix.length();
        slug = slug.length() > room ? slug.substring(0, room).replaceAll("-+$", "") : slug;
        return "gpumeter-review-" + (slug.isEmpty() ? "" : slug) + suffix;
    }

    private static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
