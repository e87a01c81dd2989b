package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs Node.js and the @kubernetes/client-node suite in clients/node; run the group alone with {@code -Dgroups=node}, or leave it out with {@code -DexcludedGroups=node}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("node")
public @interface NeedsNode {}
