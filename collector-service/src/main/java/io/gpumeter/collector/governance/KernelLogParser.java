package io.gpumeter.collector.governance;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.XidFact;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads NVIDIA driver lines from a kernel log as {@code dmesg -T}, {@code dmesg --time-format iso},
 * {@code journalctl -k -o short-iso}, plain {@code dmesg} or {@code /dev/kmsg} print them: Xid reports and the
 * driver's "GPU at PCI:… : GPU-…" announcements, which map an address to a card. Other lines are ignored; an
 * NVIDIA line whose time cannot be known is counted as skipped.
 */
public final class KernelLogParser {

    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\((?:PCI:)?([0-9a-fA-F:.]+)\\): (\\d+),\\s*(.*)$");
    private static final Pattern ANNOUNCE = Pattern.compile(
            "NVRM: GPU at PCI:([0-9a-fA-F:.]+): (GPU-[0-9a-fA-F-]+)");
    private static final Pattern PID = Pattern.compile("^pid=('?<?[^,]*>?'?),\\s*");
    private static final Pattern NAME = Pattern.compile("^name=([^,]*),\\s*");
    private static final Pattern CTIME = Pattern.compile("^\\[([A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})\\]\\s*(.*)$");
    private static final Pattern MONOTONIC = Pattern.compile("^\\[\\s*(\\d+)\\.(\\d{1,9})\\]\\s*(.*)$");
    private static final Pattern KMSG = Pattern.compile("^\\d+,\\d+,(\\d+),[^;]*;(.*)$");
    private static final Pattern ISO = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2}))\\s+(.*)$");
    private static final DateTimeFormatter CTIME_FORMAT = new DateTimeFormatterBuilder().parseCaseInsensitive()
            .appendPattern("EEE MMM").appendLiteral(' ').padNext(2).appendValue(ChronoField.DAY_OF_MONTH)
            .appendPattern(" HH:mm:ss yyyy").toFormatter(Locale.ROOT);

    private final String node;
    private final ZoneId zone;
    private final Instant bootTime;
    private final Instant receivedAt;

    /** What one body held. */
    public record Parsed(int lines, List<XidFact> xids, List<GpuAddressFact> addresses, Map<String, Integer> skipped) {
    }

    /**
     * @param zone     the zone {@code dmesg -T} printed its local times in
     * @param bootTime when the node booted, for monotonic timestamps; null when unknown
     */
    public KernelLogParser(String node, ZoneId zone, Instant bootTime, Instant receivedAt) {
        this.node = node;
        this.zone = zone;
        this.bootTime = bootTime;
        this.receivedAt = receivedAt;
    }

    public Parsed parse(List<String> lines) {
        List<XidFact> xids = new ArrayList<>();
        List<GpuAddressFact> addresses = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        Map<String, String> uuidByAddress = new HashMap<>();
        int count = 0;
        for (String raw : lines) {
            if (raw.isBlank()) {
                continue;
            }
            count++;
            if (!raw.contains("NVRM: ")) {
                continue;
            }
            Stamped line = stamp(raw.strip());
            Matcher xid = XID.matcher(line.text);
            Matcher announce = ANNOUNCE.matcher(line.text);
            boolean isXid = xid.find();
            boolean isAnnounce = !isXid && announce.find();
            if (!isXid && !isAnnounce) {
                continue;
            }
            if (line.at == null) {
                skipped.merge(line.problem, 1, Integer::sum);
                continue;
            }
            String address = PciBusId.normalize(isXid ? xid.group(1) : announce.group(1));
            if (address == null) {
                skipped.merge("unreadable PCI address", 1, Integer::sum);
                continue;
            }
            if (isAnnounce) {
                uuidByAddress.put(address, announce.group(2));
                addresses.add(new GpuAddressFact(node, address, announce.group(2), line.at));
            } else {
                xids.add(xid(address, Integer.parseInt(xid.group(2)), xid.group(3), line.at));
            }
        }
        // The announcement may come after the Xid in the same log; the address names the same card either way.
        List<XidFact> attributed = xids.stream().map(x -> x.gpuUuid() != null || !uuidByAddress.containsKey(x.pciBusId()) ? x
                : new XidFact(x.node(), x.pciBusId(), uuidByAddress.get(x.pciBusId()), x.at(), x.code(), x.pid(),
                x.process(), x.message(), x.source())).toList();
        return new Parsed(count, attributed, addresses, skipped);
    }

    private XidFact xid(String address, int code, String rest, Instant at) {
        Long pid = null;
        String process = null;
        Matcher p = PID.matcher(rest);
        if (p.find()) {
            try {
                pid = Long.parseLong(p.group(1));
            } catch (NumberFormatException e) {
                pid = null;
            }
            rest = rest.substring(p.end());
            Matcher n = NAME.matcher(rest);
            if (n.find()) {
                process = n.group(1).isBlank() ? null : n.group(1);
                rest = rest.substring(n.end());
            }
        }
        return new XidFact(node, address, null, at, code, pid, process, rest.strip(), "kmsg");
    }

    private record Stamped(Instant at, String text, String problem) {
    }

    private Stamped stamp(String line) {
        Matcher m = CTIME.matcher(line);
        if (m.matches()) {
            try {
                return new Stamped(LocalDateTime.parse(m.group(1), CTIME_FORMAT).atZone(zone).toInstant(), m.group(2), null);
            } catch (DateTimeParseException e) {
                return new Stamped(null, m.group(2), "unreadable dmesg -T time");
            }
        }
        m = ISO.matcher(line);
        if (m.matches()) {
            try {
                String iso = m.group(1).replace(',', '.').replaceAll("([+-]\\d{2})(\\d{2})$", "$1:$2");
                return new Stamped(OffsetDateTime.parse(iso).toInstant(), m.group(2), null);
            } catch (DateTimeParseException e) {
                return new Stamped(null, m.group(2), "unreadable ISO time");
            }
        }
        m = MONOTONIC.matcher(line);
        if (m.matches()) {
            String fraction = (m.group(2) + "000000000").substring(0, 9);
            return monotonic(Long.parseLong(m.group(1)) * 1_000_000_000L + Long.parseLong(fraction), m.group(3));
        }
        m = KMSG.matcher(line);
        if (m.matches()) {
            return monotonic(Long.parseLong(m.group(1)) * 1_000L, m.group(2));
        }
        return new Stamped(receivedAt, line, null);
    }

    private Stamped monotonic(long nanosSinceBoot, String text) {
        if (bootTime == null) {
            return new Stamped(null, text, "time since boot without bootTime");
        }
        return new Stamped(bootTime.plusNanos(nanosSinceBoot), text, null);
    }
}
