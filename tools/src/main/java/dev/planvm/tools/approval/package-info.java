/**
 * Human approval of tool calls: {@link dev.planvm.tools.approval.ApprovalRules} say which tools need a
 * reviewer's approval, {@link dev.planvm.tools.approval.Approvals} decides, and the call chain's approval
 * link (right after the permission link) asks before each such call; no decision yet ends the run
 * waiting ({@link dev.planvm.tools.approval.ApprovalRequired}).
 */
package dev.planvm.tools.approval;
