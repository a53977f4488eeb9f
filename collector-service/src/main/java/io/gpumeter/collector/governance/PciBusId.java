package io.gpumeter.collector.governance;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GPU's PCI address in one spelling: the kernel prints {@code 0000:9b:00}, dcgm-exporter and nvidia-smi
 * {@code 00000000:9B:00.0}; both become {@code 0000:9b:00} (domain, bus, device; the function is always 0 for a GPU).
 */
public final class PciBusId {

    private static final Pattern ADDRESS = Pattern.compile(
            "(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})(?:\\.[0-7])?");

    private PciBusId() {
    }

    /** The normalised address, or null when the text is not a PCI address. */
    public static String normalize(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = ADDRESS.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        String domain = m.group(1) == null ? "0" : m.group(1);
        long d = Long.parseLong(domain, 16);
        return String.format(Locale.ROOT, "%04x:%02x:%02x", d & 0xffff, Integer.parseInt(m.group(2), 16),
                Integer.parseInt(m.group(3), 16));
    }
}
