package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a reviewer decided about an incident, read from the body of {@code POST …/review}: the root-cause class and
 * the cause (in the one vocabulary the ledger's reads serve), a summary and the prevention items. The reviewer is
 * the token's, never the body's.
 *
 * @param rootCauseClass a {@link RootCauseClass} label, e.g. {@code operations-configuration}
 * @param cause          a {@link PendingReason} or {@link FailureCause} label, or {@code xid-N}
 */
public record ReviewInput(String rootCauseClass, String cause, String summary, List<Prevention> prevention) {

    static final int MAX_SUMMARY = 4000;
    static final int MAX_ITEMS = 20;
    static final Pattern XID = Pattern.compile("xid-[1-9][0-9]{0,3}");

    public ReviewInput {
        prevention = List.copyOf(prevention);
    }

    public static ReviewInput read(JsonNode body) {
        if (body != null && body.isObject() && body.has("reviewer")) {
            throw new InvalidInput("reviewer", "reviewer is not sent: the review is signed by the token that posts it");
        }
        Fields.object(body, "", Set.of("rootCauseClass", "cause", "summary", "prevention"),
                "rootCauseClass, cause, summary and prevention");
        String rootCause = rootCause(Fields.text(body, "rootCauseClass", "", true, Fields.MAX_TEXT));
        String cause = cause(Fields.text(body, "cause", "", true, Fields.MAX_TEXT));
        String summary = Fields.paragraphs(body, "summary", "", true, MAX_SUMMARY);
        JsonNode items = body.get("prevention");
        if (items == null || !items.isArray()) {
            throw new InvalidInput("prevention", "prevention is required: an array of items (it may be empty), each with a "
                    + "kind of ALERT_THRESHOLD, ADMISSION_POLICY, ACCEPTANCE_ITEM or REGRESSION_CASE");
        }
        if (items.size() > MAX_ITEMS) {
            throw new InvalidInput("prevention", "prevention holds at most " + MAX_ITEMS + " items, got " + items.size());
        }
        List<Prevention> prevention = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            prevention.add(Prevention.read(items.get(i), "prevention[" + i + "]"));
        }
        return new ReviewInput(rootCause, cause, summary, prevention);
    }

    /** The decision as stored: fixed key order, so equal decisions have equal bytes and equal hashes. */
    public ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("rootCauseClass", rootCauseClass).put("cause", cause)
                .put("summary", summary);
        ArrayNode items = o.putArray("prevention");
        prevention.forEach(p -> items.add(p.json()));
        return o;
    }

    /** SHA-256 of {@link #json()}: the same review sent again has the same hash, any change another. */
    public String contentHash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(json().toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public boolean wantsInputs() {
        return prevention.stream().anyMatch(p -> p instanceof RegressionCase);
    }

    private static String rootCause(String text) {
        String wanted = normalised(text);
        return Arrays.stream(RootCauseClass.values()).map(RootCauseClass::label).filter(wanted::equals).findFirst()
                .orElseThrow(() -> new InvalidInput("rootCauseClass", "rootCauseClass must be one of "
                        + Arrays.stream(RootCauseClass.values()).map(RootCauseClass::label).collect(Collectors.joining(", "))
                        + ", got '" + text + "'"));
    }

    private static String cause(String text) {
        String wanted = normalised(text);
        boolean known = XID.matcher(wanted).matches()
                || Stream.concat(Arrays.stream(PendingReason.values()).map(PendingReason::label),
                Arrays.stream(FailureCause.values()).map(FailureCause::label)).anyMatch(wanted::equals);
        if (!known) {
            throw new InvalidInput("cause", "cause must be a wait cause (" + Arrays.stream(PendingReason.values())
                    .map(PendingReason::label).collect(Collectors.joining(", ")) + "), a failure cause ("
                    + Arrays.stream(FailureCause.values()).map(FailureCause::label).collect(Collectors.joining(", "))
                    + ") or xid-N, got '" + text + "'");
        }
        return wanted;
    }

    /** CONTROL_PLANE, control_plane and control-plane are one label. */
    private static String normalised(String text) {
        return text.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
