package io.gpumeter.alert.domain;

import io.gpumeter.common.triage.Triage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A triage answer as one tenant may read it: only about the tenant's own subject, and naming no other tenant's pod,
 * workload, namespace or the tenant itself — each replaced by words that say what it was ("another tenant's pod"),
 * the pods alike with the same cause counted instead of named, and a command that would name one dropped (the tenant
 * could not run it anyway).
 *
 * <p>Which names are whose comes from the answer's {@code named} list. An answer without one (a diagnosis that marks
 * none) is cut by its shape instead: every {@code namespace/name} outside the subject's namespace counts as another
 * tenant's, which may hide more than it must and never less of what is written that way.
 */
public final class TenantCut {

    static final String POD = "another tenant's pod";
    static final String WORKLOAD = "another tenant's workload";
    static final String SERVICE = "another tenant's service";
    static final String NAMESPACE = "another tenant's namespace";
    static final String TENANT = "another tenant";
    private static final Set<String> NO_TENANT = Set.of("unassigned", "unknown");

    /** Not inside a longer name, path or label: no name character, dot, slash or dash before it. */
    private static final String BEFORE = "(?<![A-Za-z0-9_./-])";
    /** Nor after it; a dot may end a sentence, so only a dot followed by a name character continues the name. */
    private static final String AFTER = "(?![A-Za-z0-9_/-]|\\.[A-Za-z0-9])";
    private static final String NAME = "([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)";
    /** A namespace/name as answers write pods and workloads; the namespace is a DNS label. */
    private static final Pattern ANY_QUALIFIED = Pattern.compile(
            BEFORE + "([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)/" + NAME + AFTER, Pattern.CASE_INSENSITIVE);

    private final Set<String> own = new HashSet<>();
    private final Set<String> neutral = new HashSet<>();
    private final Set<String> foreignNamespaces = new HashSet<>();
    private final Map<String, String> foreignObjects = new HashMap<>();
    private final Set<String> ownNames = new HashSet<>();
    private final Set<String> foreignTenants = new HashSet<>();
    private final String tenant;
    private final boolean marked;
    private final Pattern qualified;
    private final Pattern bareNames;
    private final Pattern bareNamespaces;
    private final Pattern tenants;

    private TenantCut(Triage answer, String tenant) {
        Triage.Subject subject = answer.subject();
        this.tenant = tenant;
        marked = answer.named() != null;
        own.add(lower(subject.namespace()));
        ownNames.add(lower(subject.name()));
        List<Triage.Named> named = marked ? answer.named() : List.of();
        for (Triage.Named n : named) {
            String ns = lower(n.namespace());
            if (ns == null) {
                continue;
            }
            if (n.tenant() == null) {
                neutral.add(ns);
            } else if (n.tenant().equals(tenant)) {
                own.add(ns);
                if (n.name() != null) {
                    ownNames.add(lower(n.name()));
                }
            } else {
                foreignNamespaces.add(ns);
                foreignTenants.add(lower(n.tenant()));
            }
        }
        // a namespace marked as another tenant's is theirs, whatever else says otherwise
        own.removeAll(foreignNamespaces);
        neutral.removeAll(foreignNamespaces);
        own.remove(null);
        for (Triage.Named n : named) {
            String ns = lower(n.namespace());
            if (n.name() != null && ns != null && foreignNamespaces.contains(ns)) {
                foreignObjects.put(ns + "/" + lower(n.name()), label(n.kind()));
                foreignObjects.putIfAbsent(lower(n.name()), label(n.kind()));
            }
        }
        qualified = alternation(foreignNamespaces, "/" + NAME);
        List<String> bare = foreignObjects.keySet().stream().filter(k -> k.indexOf('/') < 0)
                .filter(k -> !ownNames.contains(k)).toList();
        bareNames = alternation(bare, "");
        bareNamespaces = alternation(foreignNamespaces, "");
        foreignTenants.remove(lower(tenant));
        // the ledger's words for a pod of no tenant: its names are hidden, the word itself names no one
        foreignTenants.removeAll(NO_TENANT);
        tenants = alternation(foreignTenants, "");
    }

    /** The answer as {@code tenant} may read it; empty when its subject is not the tenant's (a node is no one's). */
    public static Optional<Triage> of(Triage answer, String tenant) {
        Triage.Subject subject = answer == null ? null : answer.subject();
        if (subject == null || subject.tenant() == null || !subject.tenant().equals(tenant)
                || subject.namespace() == null) {
            return Optional.empty();
        }
        return Optional.of(new TenantCut(answer, tenant).cut(answer));
    }

    private Triage cut(Triage a) {
        List<Triage.Evidence> evidence = a.evidence().stream()
                .map(e -> new Triage.Evidence(e.at(), text(e.source()), text(e.fact()), command(e.command()))).toList();
        List<Triage.Alternative> alternatives = a.alternatives().stream()
                .map(x -> new Triage.Alternative(x.cause(), text(x.ruledOutBy()))).toList();
        List<String> checked = a.checked().stream().map(this::text).toList();
        List<Triage.Named> named = a.named() == null ? null : a.named().stream()
                .filter(n -> n.tenant() == null ? !foreignNamespaces.contains(lower(n.namespace()))
                        : n.tenant().equals(tenant) && own.contains(lower(n.namespace()))).toList();
        return new Triage(a.subject(), a.at(), a.symptom(), a.layer(), a.cause(), a.confidence(), scope(a.scope()),
                a.changes(), a.recurrence(), evidence, alternatives, checked, a.fix(), named);
    }

    private Triage.Scope scope(Triage.Scope scope) {
        if (scope == null) {
            return null;
        }
        List<String> kept = new ArrayList<>();
        int others = scope.othersAlike();
        for (String alike : scope.alike()) {
            if (readable(alike)) {
                kept.add(alike);
            } else {
                others++;
            }
        }
        return new Triage.Scope(scope.level(), kept, others);
    }

    /** A node's name, or a pod in the tenant's own namespace or one of no tenant. */
    private boolean readable(String alike) {
        if (alike == null) {
            return false;
        }
        int slash = alike.indexOf('/');
        if (slash < 0) {
            return !foreignObjects.containsKey(lower(alike)) || ownNames.contains(lower(alike));
        }
        String ns = lower(alike.substring(0, slash));
        return own.contains(ns) || neutral.contains(ns);
    }

    /** A command naming another tenant's object is dropped: the tenant could not run it, and it would name it. */
    private String command(String command) {
        String cut = text(command);
        return cut == null || cut.equals(command) ? command : null;
    }

    String text(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        out = replace(qualified, out, m -> foreignObjects.getOrDefault(lower(m.group(1)) + "/" + lower(m.group(2)), POD));
        if (!marked) {
            out = replace(ANY_QUALIFIED, out, m -> unknownNamespace(m.group(1), m.group(2)) ? POD : m.group());
        }
        out = replace(bareNames, out, m -> foreignObjects.getOrDefault(lower(m.group(1)), POD));
        out = replace(bareNamespaces, out, m -> NAMESPACE);
        return replace(tenants, out, m -> TENANT);
    }

    /** Unmarked answers: a namespace/name outside the tenant's and no-one's namespaces, unless it is no name at all. */
    private boolean unknownNamespace(String namespace, String name) {
        String ns = lower(namespace);
        return !own.contains(ns) && !neutral.contains(ns) && ns.chars().anyMatch(Character::isLetter) && name.length() > 1;
    }

    private static String replace(Pattern pattern, String text, Function<MatchResult, String> by) {
        if (pattern == null) {
            return text;
        }
        Matcher m = pattern.matcher(text);
        return m.replaceAll(r -> Matcher.quoteReplacement(by.apply(r)));
    }

    /** One pattern for all the words, longest first so that none stops at a shorter one it starts with. */
    private static Pattern alternation(java.util.Collection<String> words, String then) {
        List<String> sorted = words.stream().filter(w -> w != null && !w.isEmpty()).distinct()
                .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
                .map(Pattern::quote).toList();
        if (sorted.isEmpty()) {
            return null;
        }
        return Pattern.compile(BEFORE + "(" + String.join("|", sorted) + ")" + then + AFTER, Pattern.CASE_INSENSITIVE);
    }

    private static String label(Triage.SubjectKind kind) {
        if (kind == null) {
            return NAMESPACE;
        }
        return switch (kind) {
            case WORKLOAD, POD_GROUP -> WORKLOAD;
            case SERVICE -> SERVICE;
            default -> POD;
        };
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
