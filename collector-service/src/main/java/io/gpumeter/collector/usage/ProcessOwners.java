package io.gpumeter.collector.usage;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which container each process runs in, as the pusher tells it in {@code X-Gpumeter-Pids:
 * 1234=namespace/pod/container, 5678=namespace/pod} (the container may be left out). nvidia-smi knows processes,
 * not pods; the node that runs it can ask its container runtime, the collector cannot.
 */
public final class ProcessOwners {

    /** The header a pusher names its processes' containers in. */
    public static final String HEADER = "X-Gpumeter-Pids";

    /** The container a process runs in; {@code container} null when the pusher named only the pod. */
    public record Owner(String namespace, String pod, String container) {
    }

    private static final ProcessOwners NONE = new ProcessOwners(Map.of());
    // namespace and container: DNS-1123 labels; pod: a DNS-1123 subdomain, as Kubernetes validates them
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final int MAX_ENTRIES = 4096;

    private final Map<Long, Owner> owners;

    private ProcessOwners(Map<Long, Owner> owners) {
        this.owners = owners;
    }

    /**
     * Reads the header; absent or blank means no process is attributed. Blank entries (a trailing comma) are
     * ignored.
     *
     * @throws IllegalArgumentException naming the entry at fault
     */
    public static ProcessOwners parse(String header) {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        Map<Long, Owner> owners = new HashMap<>();
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
            Long pid = equals < 0 ? null : Decimals.integer(entry.substring(0, equals).strip());
            if (pid == null || pid <= 0 || entry.startsWith("+")) {
                throw new IllegalArgumentException("entry \"" + shown(entry)
                        + "\" is not pid=namespace/pod/container (pid a positive integer)");
            }
            Owner owner = owner(entry, entry.substring(equals + 1).strip());
            Owner previous = owners.putIfAbsent(pid, owner);
            if (previous != null && !previous.equals(owner)) {
                throw new IllegalArgumentException("pid " + pid + " is named twice, as " + previous.namespace() + "/"
                        + previous.pod() + " and as " + owner.namespace() + "/" + owner.pod());
            }
        }
        return new ProcessOwners(Map.copyOf(owners));
    }

    private static Owner owner(String entry, String path) {
        String[] parts = path.split("/", -1);
        if (parts.length < 2 || parts.length > 3 || !LABEL.matcher(parts[0]).matches()
                || !SUBDOMAIN.matcher(parts[1]).matches()
                || parts.length == 3 && !parts[2].isEmpty() && !LABEL.matcher(parts[2]).matches()) {
            throw new IllegalArgumentException("entry \"" + shown(entry) + "\": \"" + shown(path)
                    + "\" is not namespace/pod or namespace/pod/container as Kubernetes names them");
        }
        return new Owner(parts[0], parts[1], parts.length == 3 && !parts[2].isEmpty() ? parts[2] : null);
    }

    /** The container the process runs in, or null when the pusher did not name it. */
    public Owner of(long pid) {
        return owners.get(pid);
    }

    private static String shown(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }
}
