package io.gpumeter.collector.usage;

import java.util.HashMap;
import java.util.Map;

/**
 * The GPU UUID behind each index {@code nvidia-smi pmon} prints, as the pusher tells it in {@code X-Gpumeter-Gpus:
 * 0=GPU-…, 1=GPU-…} (what {@code nvidia-smi --query-gpu=index,uuid --format=csv,noheader} prints, joined). pmon
 * names cards by index only, and an index means nothing off its node.
 */
public final class GpuIndexes {

    /** The header a pusher maps pmon's GPU indexes in. */
    public static final String HEADER = "X-Gpumeter-Gpus";

    private static final int MAX_ENTRIES = 1024;

    private final Map<Integer, String> uuids;

    private GpuIndexes(Map<Integer, String> uuids) {
        this.uuids = uuids;
    }

    /**
     * Reads the header; absent or blank maps nothing. Blank entries (a trailing comma) are ignored.
     *
     * @throws IllegalArgumentException naming the entry at fault
     */
    public static GpuIndexes parse(String header) {
        Map<Integer, String> uuids = new HashMap<>();
        if (header == null || header.isBlank()) {
            return new GpuIndexes(Map.of());
        }
        String[] entries = header.split(",", -1);
        if (entries.length > MAX_ENTRIES) {
            throw new IllegalArgumentException("more than " + MAX_ENTRIES + " entries");
        }
        for (String raw : entries) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int equals = entry.indexOf('=');
            Long index = equals < 0 ? null : Decimals.integer(entry.substring(0, equals).strip());
            String uuid = equals < 0 ? "" : entry.substring(equals + 1).strip();
            if (index == null || index < 0 || index >= MAX_ENTRIES || entry.startsWith("+") || !isUuid(uuid)) {
                String shown = entry.length() > 80 ? entry.substring(0, 80) + "…" : entry;
                throw new IllegalArgumentException("entry \"" + shown + "\" is not index=GPU-uuid");
            }
            String previous = uuids.putIfAbsent(index.intValue(), uuid);
            if (previous != null && !previous.equals(uuid)) {
                throw new IllegalArgumentException("index " + index + " is mapped twice, to " + previous + " and " + uuid);
            }
        }
        return new GpuIndexes(Map.copyOf(uuids));
    }

    private static boolean isUuid(String text) {
        return text.startsWith("GPU-") && text.length() <= 64
                && text.chars().allMatch(c -> c == '-' || c < 128 && Character.isLetterOrDigit(c));
    }

    /** The UUID of the card at this index, or null when the pusher did not map it. */
    public String uuid(int index) {
        return uuids.get(index);
    }

    public boolean isEmpty() {
        return uuids.isEmpty();
    }
}
