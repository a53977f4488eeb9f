package io.gpumeter.alert.review;

import io.gpumeter.common.fact.Owner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What another tenant's namespaces, names and uids become in a redacted bundle: stable pseudonyms
 * ({@code other-tenant-1}, {@code redacted-3}, {@code redacted-uid-2}) numbered in the order they were learnt; its free
 * text is dropped, and text of the cluster or the tenant is cleared of every name learnt. Namespaces in {@code own}
 * stay as they are.
 */
final class Pseudonyms {

    private final Set<String> own;
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** Pseudonyms of names, by "namespace/name" of the original. */
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> uids = new LinkedHashMap<>();

    Pseudonyms(Set<String> own) {
        this.own = Set.copyOf(own);
    }

    /** How many other namespaces have a pseudonym. */
    int namespaceCount() {
        return namespaces.size();
    }

    /** How many of their objects (and names they mention) have one. */
    int nameCount() {
        return names.size();
    }

    boolean foreign(String namespace) {
        return namespace != null && !own.contains(namespace);
    }

    /** Gives an object of another namespace, and the names it mentions, their pseudonyms. */
    void learn(String namespace, String name, String uid, Owner owner, String... alsoNames) {
        if (!foreign(namespace)) {
            return;
        }
        namespace(namespace);
        name(namespace, name);
        uid(uid);
        if (owner != null) {
            name(namespace, owner.name());
        }
        for (String n : alsoNames) {
            name(namespace, n);
        }
    }

    String namespace(String ns) {
        return !foreign(ns) ? ns : namespaces.computeIfAbsent(ns, k -> "other-tenant-" + (namespaces.size() + 1));
    }

    String name(String ns, String name) {
        return name == null || !foreign(ns) ? name : names.computeIfAbsent(ns + "/" + name, k -> "redacted-" + (names.size() + 1));
    }

    private String uid(String uid) {
        return uid == null ? null : uids.computeIfAbsent(uid, k -> "redacted-uid-" + (uids.size() + 1));
    }

    String uid(String ns, String uid) {
        return foreign(ns) ? uid(uid) : uid;
    }

    Owner owner(String ns, Owner o) {
        return o == null || !foreign(ns) ? o : new Owner(o.kind(), name(ns, o.name()), o.apiVersion());
    }

    /** Free text of an object: dropped when the object is another tenant's, else {@link #scrub scrubbed}. */
    String text(String ns, String text) {
        return text == null ? null : foreign(ns) ? InputsRedaction.DROPPED : scrub(text);
    }

    /**
     * Text of the cluster or the tenant with every other tenant's "namespace/name", name and namespace replaced by
     * its pseudonym; a bare name counts only as a whole word, never inside a resource such as nvidia.com/gpu.
     */
    String scrub(String text) {
        if (text == null || (names.isEmpty() && namespaces.isEmpty())) {
            return text;
        }
        String out = text;
        for (Map.Entry<String, String> e : names.entrySet()) {
            String ns = e.getKey().substring(0, e.getKey().indexOf('/'));
            out = out.replace(e.getKey(), namespaces.get(ns) + "/" + e.getValue());
        }
        List<Map.Entry<String, String>> words = new ArrayList<>();
        names.forEach((k, v) -> words.add(Map.entry(k.substring(k.indexOf('/') + 1), v)));
        words.addAll(namespaces.entrySet());
        // the longest first, so that a name is never replaced inside a longer one
        words.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        for (Map.Entry<String, String> w : words) {
            out = replaceWord(out, w.getKey(), w.getValue());
        }
        return out;
    }

    private static String replaceWord(String text, String word, String with) {
        if (word.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            int end = at + word.length();
            if (at < from || (at > 0 && wordChar(text.charAt(at - 1))) || (end < text.length() && wordChar(text.charAt(end)))) {
                continue;
            }
            out.append(text, from, at).append(with);
            from = end;
        }
        return out.append(text.substring(from)).toString();
    }

    /** Characters a Kubernetes name, a domain or a resource path continue with. */
    private static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '/' || c == '_';
    }
}
