package io.gpumeter.common.triage;

/** What a person sees before any cause is known: the root of the diagnosis tree. */
public enum Symptom {
    PENDING, GPU_INVISIBLE, OOM, PERFORMANCE, MIG, OVERUSE, FAILED, NONE
}
