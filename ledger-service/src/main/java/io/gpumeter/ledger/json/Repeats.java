package io.gpumeter.ledger.json;

import io.gpumeter.common.json.IsoInstants;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The values a body repeats, each kept once while it is read: a pod's versions repeat its uid, name, owner, node and
 * labels, and the creation and scheduling instants, and a bulk replay's request holds tens of thousands of versions
 * of a few thousand pods. As read, every copy was a string or an instant of its own, live until the request's
 * transaction ended, and every young collection meanwhile copied them all again. One instance per body read, by one
 * thread.
 */
final class Repeats {

    private final Map<String, String> strings = new HashMap<>();
    private final Map<String, Instant> instants = new HashMap<>();

    /** The first equal string this body read, or {@code text} itself; null stays null. */
    String string(String text) {
        if (text == null) {
            return null;
        }
        String first = strings.putIfAbsent(text, text);
        return first == null ? text : first;
    }

    /** The instant {@code text} writes in the UTC form (the one read before for the same text), or null for another form. */
    Instant instant(String text) {
        Instant read = instants.get(text);
        if (read == null) {
            read = IsoInstants.parseUtc(text);
            if (read != null) {
                instants.put(text, read);
            }
        }
        return read;
    }
}
