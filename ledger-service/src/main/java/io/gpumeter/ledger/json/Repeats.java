package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.SerializableString;
import io.gpumeter.common.json.IsoInstants;

import java.io.IOException;
import java.time.Instant;

/**
 * The values a body repeats, each kept once while it is read: a pod's versions repeat its uid, name, owner, node and
 * labels, and the creation and scheduling instants, and a bulk replay's request holds tens of thousands of versions
 * of a few thousand pods. As read, every copy was a string or an instant of its own, live until the request's
 * transaction ended, and every young collection meanwhile copied them all again. A text is looked up by the
 * parser's characters, so one read before makes no string at all. One instance per body read, by one thread.
 */
final class Repeats {

    private final TextTable<String> strings = new TextTable<>();
    private final TextTable<Instant> instants = new TextTable<>();

    /** The field {@code name}'s string, or null (a JSON null); one instance for each text the body repeats. */
    String string(JsonParser p, SerializableString name) throws IOException {
        return WrittenForm.stringOrNull(p, name) ? text(p) : null;
    }

    /** The current token's string; one instance for each text the body repeats. */
    String text(JsonParser p) throws IOException {
        WrittenForm.requireString(p);
        int slot = strings.find(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (slot >= 0) {
            return strings.key(slot);
        }
        String text = p.getText();
        strings.put(slot, text, text);
        return text;
    }

    /**
     * The current token's instant in the UTC form (the one read before for the same text), or null for another form;
     * the token must be a string.
     */
    Instant instant(JsonParser p) throws IOException {
        int slot = instants.find(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (slot >= 0) {
            return instants.value(slot);
        }
        String text = p.getText();
        Instant read = IsoInstants.parseUtc(text);
        if (read != null) {
            instants.put(slot, text, read);
        }
        return read;
    }
}
