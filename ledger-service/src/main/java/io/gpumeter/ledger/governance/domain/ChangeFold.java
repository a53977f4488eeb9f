package io.gpumeter.ledger.governance.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Folds the changes of one subject within one clock minute into one booked change with their count: a value that
 * flaps every second is one row per minute, not sixty.
 */
public final class ChangeFold {

    private ChangeFold() {
    }

    public static List<BookedChange> fold(String cluster, List<Change> changes) {
        List<Change> ordered = changes.stream()
                .sorted(Comparator.comparing(Change::at).thenComparing(c -> c.kind().ordinal())
                        .thenComparing(c -> Objects.toString(c.subject(), "")))
                .toList();
        Map<String, List<Change>> byMinute = new LinkedHashMap<>();
        for (Change c : ordered) {
            byMinute.computeIfAbsent(key(c), k -> new ArrayList<>()).add(c);
        }
        List<BookedChange> out = new ArrayList<>(byMinute.size());
        byMinute.forEach((key, group) -> {
            Change first = group.get(0);
            Change last = group.get(group.size() - 1);
            out.add(new BookedChange(id(cluster, key), cluster, first.scope(), first.node(), first.at(), first.kind(),
                    first.subject(), first.before(), last.after(), first.source(), group.size(), first.pool()));
        });
        return out;
    }

    private static String key(Change c) {
        return c.scope() + '\n' + c.kind() + '\n' + Objects.toString(c.subject(), "") + '\n'
                + c.at().truncatedTo(ChronoUnit.MINUTES).getEpochSecond();
    }

    /** 24 hex digits of SHA-256 over the cluster and the row's natural key. */
    static String id(String cluster, String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((cluster + '\n' + key).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
