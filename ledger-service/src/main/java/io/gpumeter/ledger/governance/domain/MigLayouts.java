package io.gpumeter.ledger.governance.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The MIG layouts the ledger knows by name: the GPU Operator's default mig-parted configuration (its ConfigMap
 * {@code default-mig-parted-config}, shipped as a resource; see PROVENANCE.md), and the cluster's own files in
 * mig-parted's format, which win over a default of the same name. A name in neither is unknown, and reported so.
 */
public final class MigLayouts {

    /** The GPU Operator's ConfigMap, copied byte for byte. */
    static final String DEFAULTS = "default-mig-parted-config.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Map<String, MigLayout> layouts;

    private MigLayouts(Map<String, MigLayout> layouts) {
        this.layouts = Map.copyOf(layouts);
    }

    /** The GPU Operator's defaults. */
    public static MigLayouts defaults() {
        try (InputStream in = MigLayouts.class.getResourceAsStream(DEFAULTS)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULTS + " is missing from the ledger's resources");
            }
            return new MigLayouts(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), DEFAULTS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** These layouts with a file's (mig-parted's format, or a ConfigMap carrying it as config.yaml) over them. */
    public MigLayouts with(String text, String source) {
        Map<String, MigLayout> out = new LinkedHashMap<>(layouts);
        out.putAll(parse(text, source));
        return new MigLayouts(out);
    }

    /** The layout of this name; empty when the ledger does not know it. */
    public Optional<MigLayout> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(layouts.get(name.strip()));
    }

    public int size() {
        return layouts.size();
    }

    /**
     * Reads mig-parted's {@code mig-configs}, at the top of the text or in a ConfigMap's {@code data.config.yaml}.
     *
     * @throws IllegalArgumentException naming the source and the layout at fault
     */
    static Map<String, MigLayout> parse(String text, String source) {
        JsonNode root = read(text, source);
        JsonNode config = root.path("data").path("config.yaml");
        if (config.isTextual()) {
            root = read(config.asText(), source + " data.config.yaml");
        }
        JsonNode configs = root.path("mig-configs");
        if (!configs.isObject()) {
            throw new IllegalArgumentException(source + ": no mig-configs mapping (mig-parted's format, version v1)");
        }
        Map<String, MigLayout> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = configs.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> layout = it.next();
            String where = source + ": mig-configs." + layout.getKey();
            if (!layout.getValue().isArray()) {
                throw new IllegalArgumentException(where + " must be a list of entries");
            }
            List<MigLayout.Entry> entries = new ArrayList<>();
            int i = 0;
            for (JsonNode entry : layout.getValue()) {
                entries.add(entry(entry, where + "[" + i++ + "]"));
            }
            out.put(layout.getKey(), new MigLayout(layout.getKey(), entries));
        }
        return out;
    }

    private static MigLayout.Entry entry(JsonNode e, String where) {
        JsonNode devices = e.path("devices");
        List<Integer> indices = null;
        if (devices.isArray()) {
            indices = new ArrayList<>();
            for (JsonNode d : devices) {
                if (!d.canConvertToInt() || d.asInt() < 0) {
                    throw new IllegalArgumentException(where + ".devices: '" + d.asText() + "' is not a card index");
                }
                indices.add(d.asInt());
            }
        } else if (!"all".equals(devices.asText())) {
            throw new IllegalArgumentException(where + ".devices must be 'all' or a list of card indices");
        }
        List<String> filter = new ArrayList<>();
        JsonNode f = e.path("device-filter");
        if (f.isArray()) {
            f.forEach(d -> filter.add(d.asText()));
        } else if (f.isTextual()) {
            filter.add(f.asText());
        }
        boolean enabled = e.path("mig-enabled").asBoolean(false);
        Map<String, Integer> counts = new TreeMap<>();
        if (enabled) {
            for (Iterator<Map.Entry<String, JsonNode>> it = e.path("mig-devices").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> d = it.next();
                if (!d.getValue().canConvertToInt() || d.getValue().asInt() < 0) {
                    throw new IllegalArgumentException(where + ".mig-devices." + d.getKey() + " must be a count");
                }
                String profile;
                try {
                    profile = MigProfile.parse(d.getKey()).raw();
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException(where + ".mig-devices: " + bad.getMessage(), bad);
                }
                if (d.getValue().asInt() > 0) {
                    counts.merge(profile, d.getValue().asInt(), Integer::sum);
                }
            }
        }
        return new MigLayout.Entry(indices, filter, enabled, counts);
    }

    private static JsonNode read(String text, String source) {
        try {
            JsonNode node = YAML.readTree(text);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(source + " is not a YAML mapping");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(source + " is not readable YAML: " + e.getOriginalMessage(), e);
        }
    }
}
