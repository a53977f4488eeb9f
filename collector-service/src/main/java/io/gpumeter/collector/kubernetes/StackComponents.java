package io.gpumeter.collector.kubernetes;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The workloads configuration names as the GPU stack's components ({@code gpumeter.collector.stack.components}): a
 * DaemonSet or Deployment by namespace and name, each the component it is. Only these, in exactly their namespaces,
 * are the stack: a tenant's DaemonSet or pod named like a component in its own namespace is not.
 */
public final class StackComponents {

    /** The kinds a component can be, as a watch event's {@code kind} spells them. */
    public static final Set<String> KINDS = Set.of("DaemonSet", "Deployment");

    /** The value that turns a component of the defaults off. */
    public static final String OFF = "off";

    public static final StackComponents NONE = new StackComponents(Map.of());

    /** A component's name: what the change book names it by, so letters, digits and dashes. */
    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** A namespace (DNS label) and an object name (DNS subdomain), as the API server has them. */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    /** One configured workload. */
    public record Workload(String namespace, String kind, String name) implements Comparable<Workload> {
        @Override
        public int compareTo(Workload o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return namespace + "/" + kind + "/" + name;
        }
    }

    private final Map<Workload, String> components;
    /** Read for every pod the collector sees: computed once. */
    private final Set<String> namespaces;

    private StackComponents(Map<Workload, String> components) {
        this.components = Collections.unmodifiableMap(new TreeMap<>(components));
        Set<String> in = new TreeSet<>();
        components.keySet().forEach(w -> in.add(w.namespace()));
        this.namespaces = Collections.unmodifiableSet(in);
    }

    /**
     * Reads the configuration: component name to one or more {@code <namespace>/<Kind>/<name>}, comma-separated, or
     * {@value #OFF}.
     *
     * @throws IllegalArgumentException naming the component whose value is not of that form, or a workload named by
     *                                  two components
     */
    public static StackComponents parse(Map<String, String> configured) {
        Map<Workload, String> out = new TreeMap<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(configured).entrySet()) {
            String component = entry.getKey();
            String value = entry.getValue() == null ? "" : entry.getValue().trim();
            if (!COMPONENT.matcher(component).matches()) {
                throw new IllegalArgumentException("gpumeter.collector.stack.components." + component
                        + ": a component's name is lower-case letters, digits and dashes");
            }
            if (value.equalsIgnoreCase(OFF)) {
                continue;
            }
            for (String item : value.split(",")) {
                Workload workload = workload(component, item.trim());
                String before = out.put(workload, component);
                if (before != null) {
                    throw new IllegalArgumentException("gpumeter.collector.stack.components." + component + ": " + workload
                            + " is already the component " + before);
                }
            }
        }
        return new StackComponents(out);
    }

    private static Workload workload(String component, String item) {
        String[] parts = item.split("/", -1);
        if (parts.length != 3 || !NAMESPACE.matcher(parts[0]).matches() || !KINDS.contains(parts[1])
                || !NAME.matcher(parts[2]).matches()) {
            throw new IllegalArgumentException("gpumeter.collector.stack.components." + component + ": '" + item
                    + "' is not <namespace>/<DaemonSet|Deployment>/<name> (several comma-separated, or " + OFF + ")");
        }
        return new Workload(parts[0], parts[1], parts[2]);
    }

    /** The component a workload is, or null when configuration does not name it. */
    public String component(String namespace, String kind, String name) {
        if (namespace == null || kind == null || name == null) {
            return null;
        }
        return components.get(new Workload(namespace, kind, name));
    }

    /** Whether any component lives in the namespace: only those namespaces' pods can be the stack's. */
    public boolean inNamespace(String namespace) {
        return namespace != null && namespaces.contains(namespace);
    }

    /** The namespaces the components live in, sorted. */
    public Set<String> namespaces() {
        return namespaces;
    }

    /** The kinds of the components of one namespace. */
    public Set<String> kinds(String namespace) {
        Set<String> kinds = new TreeSet<>();
        components.keySet().stream().filter(w -> w.namespace().equals(namespace)).forEach(w -> kinds.add(w.kind()));
        return kinds;
    }

    /** Every configured workload and its component. */
    public Map<Workload, String> all() {
        return components;
    }

    public boolean isEmpty() {
        return components.isEmpty();
    }
}
