package io.gpumeter.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.security.AccessRule;
import io.gpumeter.common.security.AccessRules;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks a service's OpenAPI document against the access table: every write under {@code /api/} must belong to a
 * named family rather than fall to the admin-only catch-all, so adding an endpoint forces a decision about who may
 * call it.
 */
public final class AccessCoverage {

    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

    private AccessCoverage() {
    }

    /** The operations ("METHOD path") that no named family covers; empty when the table is complete. */
    public static List<String> uncovered(String openApiJson) {
        JsonNode paths;
        try {
            paths = new ObjectMapper().readTree(openApiJson).path("paths");
        } catch (IOException e) {
            throw new IllegalArgumentException("not an OpenAPI JSON document", e);
        }
        AccessRule catchAll = AccessRules.RULES.get(AccessRules.RULES.size() - 1);
        List<String> missing = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> path = it.next();
            if (!path.getKey().startsWith("/api/")) {
                continue;
            }
            for (Iterator<String> ops = path.getValue().fieldNames(); ops.hasNext(); ) {
                String method = ops.next();
                if (METHODS.contains(method)
                        && AccessRules.match(method.toUpperCase(Locale.ROOT), path.getKey()) == catchAll) {
                    missing.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        return missing;
    }

    /** How many operations under {@code /api/} the document lists, so a check over nothing cannot pass. */
    public static int operations(String openApiJson) {
        try {
            int n = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = new ObjectMapper().readTree(openApiJson).path("paths").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> path = it.next();
                if (path.getKey().startsWith("/api/")) {
                    for (Iterator<String> ops = path.getValue().fieldNames(); ops.hasNext(); ) {
                        n += METHODS.contains(ops.next()) ? 1 : 0;
                    }
                }
            }
            return n;
        } catch (IOException e) {
            throw new IllegalArgumentException("not an OpenAPI JSON document", e);
        }
    }
}
