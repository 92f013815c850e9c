//! relic-anim: animation sampling, pose evaluation, skinning and bounds on the common model. Not implemented yet.
