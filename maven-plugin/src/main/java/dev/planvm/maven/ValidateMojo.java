package dev.planvm.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * {@code planvm:validate}: loads every plan of {@code plansDirectory} (schema and static checks, every
 * dialect) and fails the build listing every error with its file, {@code seq_no} and JSON pointer, as
 * {@code planvm validate} prints them.
 */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = false)
public class ValidateMojo extends PlansMojo {

    @Override
    String goal() {
        return "validate";
    }

    @Override
    PlanChecks.Result check(PlanChecks checks) {
        return checks.validate();
    }
}
