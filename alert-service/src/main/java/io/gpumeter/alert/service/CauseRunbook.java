package io.gpumeter.alert.service;

import io.gpumeter.alert.config.CausesConfig;
import io.gpumeter.alert.domain.CauseEntry;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.XidClass;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runbook's entries by cause, which a triage's {@code fix} quotes. Checked at start-up: a cause a triage can name
 * without an entry, an entry for no cause (a misspelt override would otherwise be ignored) or an entry without steps
 * or verification stops the service with a message naming the property.
 */
// Built at start-up, so that a runbook missing a cause never serves a triage without its fix.
@Startup
@ApplicationScoped
public class CauseRunbook {

    static final String PREFIX = "gpumeter.alert.causes.";

    private final Map<String, CauseEntry> entries = new LinkedHashMap<>();

    public CauseRunbook(CausesConfig config) {
        Map<String, Known> known = known();
        Map<String, CausesConfig.Cause> configured = new TreeMap<>(config.entries());
        configured.forEach((cause, e) -> {
            Known k = known.get(cause);
            Optional<Integer> xid = XidClass.code(cause);
            if (k == null && xid.isEmpty()) {
                throw new IllegalArgumentException(PREFIX + cause + ": no such cause; an entry is for a wait class or "
                        + "a failure cause as the ledger labels them (e.g. cluster-full, neighbour-memory-pressure), an "
                        + "Xid class (" + String.join(", ", labels(known, "xid-class")) + ") or one Xid (xid-N)");
            }
            List<String> steps = e.steps().stream().map(String::strip).toList();
            if (steps.isEmpty() || steps.stream().anyMatch(String::isEmpty)) {
                throw new IllegalArgumentException(PREFIX + cause + ".steps: every step needs words");
            }
            if (e.verify().isBlank()) {
                throw new IllegalArgumentException(PREFIX + cause + ".verify: say how to see that the steps worked");
            }
            String kind = k != null ? k.kind() : "xid";
            RootCauseClass layer = k != null ? k.layer() : XidClass.of(xid.get()).rootCause();
            entries.put(cause, new CauseEntry(cause, kind, layer.label(), steps, e.verify().strip()));
        });
        for (Map.Entry<String, Known> cause : known.entrySet()) {
            if (!entries.containsKey(cause.getKey())) {
                throw new IllegalArgumentException(PREFIX + cause.getKey() + ".steps: every cause a triage can name "
                        + "needs a runbook entry (steps, smallest first, and verify)");
            }
        }
    }

    /** Every entry: the wait classes, the failure causes and the Xid classes in the vocabulary's order, then single Xids. */
    public List<CauseEntry> entries() {
        List<CauseEntry> out = new ArrayList<>();
        known().keySet().forEach(cause -> out.add(entries.get(cause)));
        entries.values().stream().filter(e -> e.kind().equals("xid"))
                .sorted(Comparator.comparingInt(e -> XidClass.code(e.cause()).orElse(0)))
                .forEach(out::add);
        return out;
    }

    /** The entry a triage naming {@code cause} quotes: the cause's own, or for an Xid its class's; empty for none. */
    public Optional<CauseEntry> entry(String cause) {
        if (cause == null) {
            return Optional.empty();
        }
        CauseEntry own = entries.get(cause);
        if (own != null) {
            return Optional.of(own);
        }
        return XidClass.code(cause).map(code -> entries.get(XidClass.of(code).causeLabel()));
    }

    /** The fix a triage naming {@code cause} carries. */
    public Optional<Triage.Fix> fix(String cause) {
        return entry(cause).map(e -> new Triage.Fix(e.action(), e.verify()));
    }

    private record Known(String kind, RootCauseClass layer) {
    }

    /** Every cause a triage can name, in the vocabulary's order; two with one label would make a fix ambiguous. */
    private static Map<String, Known> known() {
        Map<String, Known> known = new LinkedHashMap<>();
        for (PendingReason r : PendingReason.values()) {
            add(known, r.label(), new Known("wait", r.rootCause()));
        }
        for (FailureCause c : FailureCause.values()) {
            add(known, c.label(), new Known("failure", c.rootCause()));
        }
        for (XidClass c : XidClass.values()) {
            add(known, c.causeLabel(), new Known("xid-class", c.rootCause()));
        }
        return known;
    }

    private static void add(Map<String, Known> known, String label, Known cause) {
        if (known.putIfAbsent(label, cause) != null) {
            throw new IllegalStateException("two causes are labelled '" + label + "'; a runbook entry could not tell them apart");
        }
    }

    private static List<String> labels(Map<String, Known> known, String kind) {
        return known.entrySet().stream().filter(e -> e.getValue().kind().equals(kind)).map(Map.Entry::getKey).toList();
    }
}
