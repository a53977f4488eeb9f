package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Reads of the ledger's change book: a window of it a page of 10,000 at a time (the most one list answers), and many
 * scopes at once in one bulk read, as a page correlating its events with changes reads them.
 */
final class ChangeReads {

    /** The most changes one page of the list answers. */
    static final int LIST_LIMIT = 10_000;
    /** The most changes a page reads of one window: beyond, it says so and asks for a narrower one. */
    static final int MOST = 50_000;
    /** The most scopes one bulk read takes. */
    static final int MOST_SCOPES = 1_000;

    private ChangeReads() {
    }

    /**
     * The changes of a window, oldest first.
     *
     * @param total how many the window holds in all, at least the changes read
     */
    record Window(List<BookChange> changes, long total) {

        boolean cut() {
            return total > changes.size();
        }
    }

    /** One scope of a bulk read: a node of a cluster (with the cluster-wide changes) over [from, to). */
    record Scope(String cluster, String node, Instant from, Instant to, int limit, boolean newestFirst) {
    }

    /**
     * {@code GET /api/v1/changes?<query>}, page after page up to {@link #MOST}; the pages after the first, whose
     * {@code X-Total-Count} says how many follow, are asked at once. Null when the ledger refused (the page says why).
     */
    static Window window(Upstream upstream, ObjectMapper json, Viewer viewer, Page page, String query) {
        Answer first = upstream.getJson(Backend.LEDGER, list(query, 0), viewer.token()).join();
        page.call(first.call());
        if (!first.ok()) {
            page.message(first.refusal());
            return null;
        }
        List<BookChange> page1 = first.listOf(json, BookChange.class);
        List<BookChange> changes = new ArrayList<>(drawable(page1));
        int read = page1.size();
        Long total = first.total();
        if (total != null) {
            List<CompletableFuture<Answer>> rest = new ArrayList<>();
            for (long offset = LIST_LIMIT; offset < Math.min(total, MOST); offset += LIST_LIMIT) {
                rest.add(upstream.getJson(Backend.LEDGER, list(query, offset), viewer.token()));
            }
            for (CompletableFuture<Answer> next : rest) {
                Answer a = next.join();
                page.call(a.call());
                if (!a.ok()) {
                    page.message(a.refusal());
                    return null;
                }
                changes.addAll(drawable(a.listOf(json, BookChange.class)));
            }
            return new Window(changes, Math.max(total, changes.size()));
        }
        // A list that does not say its length: page on while pages come full.
        while (read == LIST_LIMIT && changes.size() < MOST) {
            Answer a = upstream.getJson(Backend.LEDGER, list(query, changes.size()), viewer.token()).join();
            page.call(a.call());
            if (!a.ok()) {
                page.message(a.refusal());
                return null;
            }
            List<BookChange> next = a.listOf(json, BookChange.class);
            read = next.size();
            changes.addAll(drawable(next));
        }
        return new Window(changes, changes.size() + (read == LIST_LIMIT ? 1 : 0));
    }

    /**
     * {@code POST /api/v1/changes/bulk}: every scope's changes (each node's scope takes its cluster's cluster-wide
     * ones too) in one read, each change once, oldest first; the first {@link #MOST_SCOPES} scopes only. Null when the
     * ledger refused (the page says why).
     */
    static List<BookChange> bulk(Upstream upstream, ObjectMapper json, Viewer viewer, Page page, List<Scope> scopes) {
        if (scopes.isEmpty()) {
            return List.of();
        }
        List<Map<String, Object>> asked = new ArrayList<>();
        for (Scope s : scopes.subList(0, Math.min(scopes.size(), MOST_SCOPES))) {
            Map<String, Object> scope = new LinkedHashMap<>();
            scope.put("cluster", s.cluster());
            if (s.node() != null) {
                scope.put("node", s.node());
            }
            scope.put("from", Format.rfc3339(s.from()));
            scope.put("to", Format.rfc3339(s.to()));
            scope.put("limit", s.limit());
            scope.put("newestFirst", s.newestFirst());
            asked.add(scope);
        }
        String body;
        try {
            body = json.writeValueAsString(Map.of("scopes", asked));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Answer answer = upstream.postJson(Backend.LEDGER, "/api/v1/changes/bulk", body, viewer.token()).join();
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return null;
        }
        Map<String, BookChange> once = new LinkedHashMap<>();
        for (BulkScope scope : answer.listOf(json, BulkScope.class)) {
            for (BookChange c : drawable(scope.changes())) {
                once.putIfAbsent(c.id() != null ? c.id() : c.summary(), c);
            }
        }
        List<BookChange> out = new ArrayList<>(once.values());
        out.sort(Comparator.comparing(BookChange::at));
        return out;
    }

    /** One scope of the bulk read's answer: its changes, oldest first unless asked newest first. */
    @RegisterForReflection
    record BulkScope(List<BookChange> changes) {
    }

    /** The changes that can be drawn: each with an instant and a kind. */
    static List<BookChange> drawable(List<BookChange> changes) {
        return changes == null ? List.of() : changes.stream().filter(BookChange::drawable).toList();
    }

    private static String list(String query, long offset) {
        return "/api/v1/changes?" + query + "&limit=" + LIST_LIMIT + "&offset=" + offset;
    }
}
